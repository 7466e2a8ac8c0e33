-- all-to-many (duckdb)
-- entity: Book
-- filter: ALL chapters.pages > 5

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE NOT EXISTS (SELECT 1 FROM "chapters" t1 WHERE t1."book_id" = t0."id" AND NOT COALESCE(t1."pages" > $1, FALSE)) ORDER BY t0."id";
-- $1 = integer 5

-- count
SELECT COUNT(*) FROM "books" t0 WHERE NOT EXISTS (SELECT 1 FROM "chapters" t1 WHERE t1."book_id" = t0."id" AND NOT COALESCE(t1."pages" > $1, FALSE));
-- $1 = integer 5
