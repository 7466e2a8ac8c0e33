-- subquery-outer-keys (duckdb)
-- entity: Book
-- filter: SUBQUERY(chapters, $c, $c.name == title OR $c.pages > year).@count == 0

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE (SELECT COUNT(*) FROM "chapters" t1 WHERE t1."book_id" = t0."id" AND (t1."name" IS NOT DISTINCT FROM t0."title" OR t1."pages" > t0."year")) = $1 ORDER BY t0."id";
-- $1 = integer 0

-- count
SELECT COUNT(*) FROM "books" t0 WHERE (SELECT COUNT(*) FROM "chapters" t1 WHERE t1."book_id" = t0."id" AND (t1."name" IS NOT DISTINCT FROM t0."title" OR t1."pages" > t0."year")) = $1;
-- $1 = integer 0
