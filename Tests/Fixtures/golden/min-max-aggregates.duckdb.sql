-- min-max-aggregates (duckdb)
-- entity: Book
-- filter: chapters.@max.pages == chapters.@min.pages

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE (SELECT MAX(t1."pages") FROM "chapters" t1 WHERE t1."book_id" = t0."id") IS NOT DISTINCT FROM (SELECT MIN(t2."pages") FROM "chapters" t2 WHERE t2."book_id" = t0."id") ORDER BY t0."id";

-- count
SELECT COUNT(*) FROM "books" t0 WHERE (SELECT MAX(t1."pages") FROM "chapters" t1 WHERE t1."book_id" = t0."id") IS NOT DISTINCT FROM (SELECT MIN(t2."pages") FROM "chapters" t2 WHERE t2."book_id" = t0."id");
