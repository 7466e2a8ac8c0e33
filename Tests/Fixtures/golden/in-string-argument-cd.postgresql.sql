-- in-string-argument-cd (postgresql)
-- entity: Book
-- filter: code IN[cd] {"a_b", "caf\u{E9}", "\u{130}stanbul"}

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE regexp_replace(normalize(replace(lower(upper(replace(t0."isbn code", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD), '[\u0300-\u036F\u0483-\u0489\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE20-\uFE2F]', '', 'g') = ANY($1) ORDER BY t0."id";
-- $1 = array [text "a_b", text "cafe", text "istanbul"]

-- count
SELECT COUNT(*) FROM "books" t0 WHERE regexp_replace(normalize(replace(lower(upper(replace(t0."isbn code", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD), '[\u0300-\u036F\u0483-\u0489\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE20-\uFE2F]', '', 'g') = ANY($1);
-- $1 = array [text "a_b", text "cafe", text "istanbul"]
