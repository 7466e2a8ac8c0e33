-- endswith-c (sqlite)
-- entity: Book
-- filter: title ENDSWITH[c] "E"

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE sift_search(t0."title", ?1, 1, 1) ORDER BY t0."id";
-- ?1 = text "E"

-- count
SELECT COUNT(*) FROM "books" t0 WHERE sift_search(t0."title", ?1, 1, 1);
-- ?1 = text "E"
