-- not-equal-optional (duckdb)
-- entity: Book
-- filter: year != 2000

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE (t0."year" <> $1 OR t0."year" IS NULL) ORDER BY t0."id";
-- $1 = integer 2000

-- count
SELECT COUNT(*) FROM "books" t0 WHERE (t0."year" <> $1 OR t0."year" IS NULL);
-- $1 = integer 2000
