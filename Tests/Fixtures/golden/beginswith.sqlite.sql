-- beginswith (sqlite)
-- entity: Book
-- filter: title BEGINSWITH "A"

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE ((t0."title" >= ?1 AND t0."title" < ?2) OR (t0."title" >= ?3 AND t0."title" < ?4 AND sift_search(t0."title", ?5, 0, 0))) ORDER BY t0."id";
-- ?1 = text "A"
-- ?2 = text "B"
-- ?3 = text "\u{C0}"
-- ?4 = text "\u{212C}"
-- ?5 = text "A"

-- count
SELECT (SELECT COUNT(*) FROM "books" t0 WHERE (t0."title" >= ?1 AND t0."title" < ?2)) + (SELECT COUNT(*) FROM "books" t0 WHERE (t0."title" >= ?3 AND t0."title" < ?4 AND sift_search(t0."title", ?5, 0, 0)));
-- ?1 = text "A"
-- ?2 = text "B"
-- ?3 = text "\u{C0}"
-- ?4 = text "\u{212C}"
-- ?5 = text "A"
