-- ternary-operands (postgresql)
-- entity: Book
-- filter: TERNARY(year != nil, year, 0) > 1995 OR (NOT TERNARY(price > 5, title, code) BEGINSWITH[c] "a")

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE ((t0."year" IS NOT NULL AND t0."year" > $1) OR ((NOT COALESCE((t0."price" > $2 AND t0."price" IS DISTINCT FROM 'NaN'), FALSE) OR NOT COALESCE(normalize(replace(lower(upper(replace(t0."title", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD) LIKE $3 ESCAPE '\', FALSE)) AND ((t0."price" > $4 AND t0."price" IS DISTINCT FROM 'NaN') OR NOT COALESCE(normalize(replace(lower(upper(replace(t0."isbn code", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD) LIKE $5 ESCAPE '\', FALSE)))) ORDER BY t0."id";
-- $1 = integer 1995
-- $2 = integer 5
-- $3 = text "a%"
-- $4 = integer 5
-- $5 = text "a%"

-- count
SELECT COUNT(*) FROM "books" t0 WHERE ((t0."year" IS NOT NULL AND t0."year" > $1) OR ((NOT COALESCE((t0."price" > $2 AND t0."price" IS DISTINCT FROM 'NaN'), FALSE) OR NOT COALESCE(normalize(replace(lower(upper(replace(t0."title", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD) LIKE $3 ESCAPE '\', FALSE)) AND ((t0."price" > $4 AND t0."price" IS DISTINCT FROM 'NaN') OR NOT COALESCE(normalize(replace(lower(upper(replace(t0."isbn code", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD) LIKE $5 ESCAPE '\', FALSE))));
-- $1 = integer 1995
-- $2 = integer 5
-- $3 = text "a%"
-- $4 = integer 5
-- $5 = text "a%"
