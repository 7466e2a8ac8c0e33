-- equal-c-d (sqlite)
-- entity: Book
-- filter: title ==[c] "ann" OR code ==[d] "cafe" OR title ==[cd] "emile"

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE (sift_fold(t0."title", 1) = ?1 OR sift_fold(t0."isbn code", 2) = ?2 OR sift_fold(t0."title", 3) = ?3) ORDER BY t0."id";
-- ?1 = text "ann"
-- ?2 = text "cafe"
-- ?3 = text "emile"

-- count
SELECT COUNT(*) FROM "books" t0 WHERE (sift_fold(t0."title", 1) = ?1 OR sift_fold(t0."isbn code", 2) = ?2 OR sift_fold(t0."title", 3) = ?3);
-- ?1 = text "ann"
-- ?2 = text "cafe"
-- ?3 = text "emile"
