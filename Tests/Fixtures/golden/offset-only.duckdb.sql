-- offset-only (duckdb)
-- entity: Book
-- filter: price != nil
-- offset: 3

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE t0."price" IS NOT NULL ORDER BY t0."id" OFFSET $1;
-- $1 = integer 3

-- count
SELECT COUNT(*) FROM (SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE t0."price" IS NOT NULL ORDER BY t0."id" OFFSET $1) counted;
-- $1 = integer 3
