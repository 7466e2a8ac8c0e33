-- equal-c-d (postgresql)
-- entity: Book
-- filter: title ==[c] "ann" OR code ==[d] "cafe" OR title ==[cd] "emile"

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE (normalize(replace(lower(upper(replace(t0."title", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD) = $1 OR regexp_replace(normalize(t0."isbn code", NFD), '[\u0300-\u036F\u0483-\u0489\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE20-\uFE2F]', '', 'g') = $2 OR regexp_replace(normalize(replace(lower(upper(replace(t0."title", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD), '[\u0300-\u036F\u0483-\u0489\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE20-\uFE2F]', '', 'g') = $3) ORDER BY t0."id";
-- $1 = text "ann"
-- $2 = text "cafe"
-- $3 = text "emile"

-- count
SELECT COUNT(*) FROM "books" t0 WHERE (normalize(replace(lower(upper(replace(t0."title", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD) = $1 OR regexp_replace(normalize(t0."isbn code", NFD), '[\u0300-\u036F\u0483-\u0489\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE20-\uFE2F]', '', 'g') = $2 OR regexp_replace(normalize(replace(lower(upper(replace(t0."title", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD), '[\u0300-\u036F\u0483-\u0489\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE20-\uFE2F]', '', 'g') = $3);
-- $1 = text "ann"
-- $2 = text "cafe"
-- $3 = text "emile"
