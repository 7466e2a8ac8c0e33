-- beginswith (sqlite)
-- entity: Book
-- filter: title BEGINSWITH "A"

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE ((t0."title" >= ?1 AND t0."title" < ?2) OR (t0."title" >= ?3 AND t0."title" < ?4 AND (CASE WHEN typeof(t0."title") = 'text' AND length(t0."title") = length(CAST(t0."title" AS BLOB)) THEN substr(t0."title", 1, length(?5)) = ?5 ELSE sift_search(t0."title", ?6, 0, 0) END))) ORDER BY t0."id";
-- ?1 = text "A"
-- ?2 = text "B"
-- ?3 = text "\u{C0}"
-- ?4 = text "\u{212C}"
-- ?5 = text "A"
-- ?6 = text "A"

-- count
SELECT (SELECT COUNT(*) FROM "books" t0 WHERE (t0."title" >= ?1 AND t0."title" < ?2)) + (SELECT COUNT(*) FROM "books" t0 WHERE (t0."title" >= ?3 AND t0."title" < ?4 AND (CASE WHEN typeof(t0."title") = 'text' AND length(t0."title") = length(CAST(t0."title" AS BLOB)) THEN substr(t0."title", 1, length(?5)) = ?5 ELSE sift_search(t0."title", ?6, 0, 0) END)));
-- ?1 = text "A"
-- ?2 = text "B"
-- ?3 = text "\u{C0}"
-- ?4 = text "\u{212C}"
-- ?5 = text "A"
-- ?6 = text "A"
