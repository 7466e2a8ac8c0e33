-- ternary-operands (sqlite)
-- entity: Book
-- filter: TERNARY(year != nil, year, 0) > 1995 OR (NOT TERNARY(price > 5, title, code) BEGINSWITH[c] "a")

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE ((t0."year" IS NOT NULL AND t0."year" > ?1) OR ((NOT COALESCE(t0."price" > ?2, 0) OR NOT (CASE WHEN typeof(t0."title") = 'text' AND length(t0."title") = length(CAST(t0."title" AS BLOB)) AND 'a' LIKE 'A' THEN t0."title" LIKE ?3 ESCAPE '\' ELSE sift_search(t0."title", ?4, 0, 1) END)) AND (t0."price" > ?5 OR NOT (CASE WHEN typeof(t0."isbn code") = 'text' AND length(t0."isbn code") = length(CAST(t0."isbn code" AS BLOB)) AND 'a' LIKE 'A' THEN t0."isbn code" LIKE ?6 ESCAPE '\' ELSE sift_search(t0."isbn code", ?7, 0, 1) END)))) ORDER BY t0."id";
-- ?1 = integer 1995
-- ?2 = integer 5
-- ?3 = text "a%"
-- ?4 = text "a"
-- ?5 = integer 5
-- ?6 = text "a%"
-- ?7 = text "a"

-- count
SELECT COUNT(*) FROM "books" t0 WHERE ((t0."year" IS NOT NULL AND t0."year" > ?1) OR ((NOT COALESCE(t0."price" > ?2, 0) OR NOT (CASE WHEN typeof(t0."title") = 'text' AND length(t0."title") = length(CAST(t0."title" AS BLOB)) AND 'a' LIKE 'A' THEN t0."title" LIKE ?3 ESCAPE '\' ELSE sift_search(t0."title", ?4, 0, 1) END)) AND (t0."price" > ?5 OR NOT (CASE WHEN typeof(t0."isbn code") = 'text' AND length(t0."isbn code") = length(CAST(t0."isbn code" AS BLOB)) AND 'a' LIKE 'A' THEN t0."isbn code" LIKE ?6 ESCAPE '\' ELSE sift_search(t0."isbn code", ?7, 0, 1) END))));
-- ?1 = integer 1995
-- ?2 = integer 5
-- ?3 = text "a%"
-- ?4 = text "a"
-- ?5 = integer 5
-- ?6 = text "a%"
-- ?7 = text "a"
