-- in-empty-list (duckdb)
-- entity: Book
-- filter: year IN {}

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE FALSE ORDER BY t0."id";

-- count
SELECT COUNT(*) FROM "books" t0 WHERE FALSE;
