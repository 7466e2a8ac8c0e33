-- date-argument (duckdb)
-- entity: Book
-- filter: published > CAST(21692800, "NSDate")

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE t0."published" > $1 ORDER BY t0."id";
-- $1 = real 1000000000.0

-- count
SELECT COUNT(*) FROM "books" t0 WHERE t0."published" > $1;
-- $1 = real 1000000000.0
