-- not-equal-required (duckdb)
-- entity: Book
-- filter: title != "x"

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE t0."title" <> $1 ORDER BY t0."id";
-- $1 = text "x"

-- count
SELECT COUNT(*) FROM "books" t0 WHERE t0."title" <> $1;
-- $1 = text "x"
