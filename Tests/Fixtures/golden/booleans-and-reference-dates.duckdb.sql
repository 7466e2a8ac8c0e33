-- booleans-and-reference-dates (duckdb)
-- entity: Author
-- filter: active == 1 AND rating >= 2.5 AND born < CAST(0, "NSDate")

-- select
SELECT t0."id", t0."name", t0."age", t0."rating", t0."active", t0."born" FROM "authors" t0 WHERE t0."active" = $1 AND (t0."rating" >= $2 AND t0."rating" IS DISTINCT FROM CAST('NaN' AS DOUBLE)) AND t0."born" < $3 ORDER BY t0."id";
-- $1 = boolean true
-- $2 = real 2.5
-- $3 = real 0.0

-- count
SELECT COUNT(*) FROM "authors" t0 WHERE t0."active" = $1 AND (t0."rating" >= $2 AND t0."rating" IS DISTINCT FROM CAST('NaN' AS DOUBLE)) AND t0."born" < $3;
-- $1 = boolean true
-- $2 = real 2.5
-- $3 = real 0.0
