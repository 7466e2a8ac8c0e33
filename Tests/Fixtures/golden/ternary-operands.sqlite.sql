-- ternary-operands (sqlite)
-- entity: Book
-- filter: TERNARY(year != nil, year, 0) > 1995 OR (NOT TERNARY(price > 5, title, code) BEGINSWITH[c] "a")

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE ((t0."year" IS NOT NULL AND t0."year" > ?1) OR ((NOT COALESCE(t0."price" > ?2, 0) OR NOT sift_search(t0."title", ?3, 0, 1)) AND (t0."price" > ?4 OR NOT sift_search(t0."isbn code", ?5, 0, 1)))) ORDER BY t0."id";
-- ?1 = integer 1995
-- ?2 = integer 5
-- ?3 = text "a"
-- ?4 = integer 5
-- ?5 = text "a"

-- count
SELECT COUNT(*) FROM "books" t0 WHERE ((t0."year" IS NOT NULL AND t0."year" > ?1) OR ((NOT COALESCE(t0."price" > ?2, 0) OR NOT sift_search(t0."title", ?3, 0, 1)) AND (t0."price" > ?4 OR NOT sift_search(t0."isbn code", ?5, 0, 1))));
-- ?1 = integer 1995
-- ?2 = integer 5
-- ?3 = text "a"
-- ?4 = integer 5
-- ?5 = text "a"
