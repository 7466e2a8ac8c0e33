-- all-books (duckdb)
-- entity: Book

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 ORDER BY t0."id";

-- count
SELECT COUNT(*) FROM "books" t0;
