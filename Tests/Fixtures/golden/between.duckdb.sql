-- between (duckdb)
-- entity: Book
-- filter: year BETWEEN {1990, 2000}

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE t0."year" BETWEEN $1 AND $2 ORDER BY t0."id";
-- $1 = integer 1990
-- $2 = integer 2000

-- count
SELECT COUNT(*) FROM "books" t0 WHERE t0."year" BETWEEN $1 AND $2;
-- $1 = integer 1990
-- $2 = integer 2000
