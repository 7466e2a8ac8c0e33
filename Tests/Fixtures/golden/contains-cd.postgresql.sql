-- contains-cd (postgresql)
-- entity: Book
-- filter: title CONTAINS[cd] "stra"

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE regexp_replace(normalize(replace(lower(upper(replace(t0."title", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD), '[\u0300-\u036F\u0483-\u0489\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE20-\uFE2F]', '', 'g') LIKE $1 ESCAPE '\' ORDER BY t0."id";
-- $1 = text "%stra%"

-- count
SELECT COUNT(*) FROM "books" t0 WHERE regexp_replace(normalize(replace(lower(upper(replace(t0."title", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD), '[\u0300-\u036F\u0483-\u0489\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE20-\uFE2F]', '', 'g') LIKE $1 ESCAPE '\';
-- $1 = text "%stra%"
