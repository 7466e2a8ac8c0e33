-- in-integer-list (duckdb)
-- entity: Book
-- filter: year IN {1995, 2000, nil}

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE t0."year" IN ($1, $2) ORDER BY t0."id";
-- $1 = integer 1995
-- $2 = integer 2000

-- count
SELECT COUNT(*) FROM "books" t0 WHERE t0."year" IN ($1, $2);
-- $1 = integer 1995
-- $2 = integer 2000
