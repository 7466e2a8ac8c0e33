-- ordering-doubles (duckdb)
-- entity: Book
-- filter: price >= 10.5 AND price < 20

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE (t0."price" >= $1 AND t0."price" IS DISTINCT FROM CAST('NaN' AS DOUBLE)) AND t0."price" < $2 ORDER BY t0."id";
-- $1 = real 10.5
-- $2 = integer 20

-- count
SELECT COUNT(*) FROM "books" t0 WHERE (t0."price" >= $1 AND t0."price" IS DISTINCT FROM CAST('NaN' AS DOUBLE)) AND t0."price" < $2;
-- $1 = real 10.5
-- $2 = integer 20
