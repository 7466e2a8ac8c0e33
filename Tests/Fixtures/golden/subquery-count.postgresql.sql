-- subquery-count (postgresql)
-- entity: Book
-- filter: SUBQUERY(chapters, $c, $c.pages > 10 AND $c.name BEGINSWITH[c] "a").@count > 1

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE (SELECT COUNT(*) FROM "chapters" t1 WHERE t1."book_id" = t0."id" AND (t1."pages" > $1 AND normalize(replace(lower(upper(replace(t1."name", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD) LIKE $2 ESCAPE '\')) > $3 ORDER BY t0."id";
-- $1 = integer 10
-- $2 = text "a%"
-- $3 = integer 1

-- count
SELECT COUNT(*) FROM "books" t0 WHERE (SELECT COUNT(*) FROM "chapters" t1 WHERE t1."book_id" = t0."id" AND (t1."pages" > $1 AND normalize(replace(lower(upper(replace(t1."name", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD) LIKE $2 ESCAPE '\')) > $3;
-- $1 = integer 10
-- $2 = text "a%"
-- $3 = integer 1
