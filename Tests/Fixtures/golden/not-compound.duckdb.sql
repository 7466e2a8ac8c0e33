-- not-compound (duckdb)
-- entity: Book
-- filter: NOT (year > 2000 OR price == nil)

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE NOT COALESCE(t0."year" > $1, FALSE) AND t0."price" IS NOT NULL ORDER BY t0."id";
-- $1 = integer 2000

-- count
SELECT COUNT(*) FROM "books" t0 WHERE NOT COALESCE(t0."year" > $1, FALSE) AND t0."price" IS NOT NULL;
-- $1 = integer 2000
