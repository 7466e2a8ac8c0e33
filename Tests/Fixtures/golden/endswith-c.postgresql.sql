-- endswith-c (postgresql)
-- entity: Book
-- filter: title ENDSWITH[c] "E"

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE normalize(replace(lower(upper(replace(t0."title", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD) LIKE $1 ESCAPE '\' ORDER BY t0."id";
-- $1 = text "%e"

-- count
SELECT COUNT(*) FROM "books" t0 WHERE normalize(replace(lower(upper(replace(t0."title", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD) LIKE $1 ESCAPE '\';
-- $1 = text "%e"
