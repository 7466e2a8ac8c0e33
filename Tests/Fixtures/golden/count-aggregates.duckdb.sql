-- count-aggregates (duckdb)
-- entity: Book
-- filter: chapters.@count >= 2 AND tags.@count == 0

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE (SELECT COUNT(*) FROM "chapters" t1 WHERE t1."book_id" = t0."id") >= $1 AND (SELECT COUNT(*) FROM "book_tags" t2 WHERE t2."book_id" = t0."id") = $2 ORDER BY t0."id";
-- $1 = integer 2
-- $2 = integer 0

-- count
SELECT COUNT(*) FROM "books" t0 WHERE (SELECT COUNT(*) FROM "chapters" t1 WHERE t1."book_id" = t0."id") >= $1 AND (SELECT COUNT(*) FROM "book_tags" t2 WHERE t2."book_id" = t0."id") = $2;
-- $1 = integer 2
-- $2 = integer 0
