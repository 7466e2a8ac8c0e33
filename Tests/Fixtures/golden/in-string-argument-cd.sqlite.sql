-- in-string-argument-cd (sqlite)
-- entity: Book
-- filter: code IN[cd] {"a_b", "caf\u{E9}", "\u{130}stanbul"}

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE sift_fold(t0."isbn code", 3) IN (?1, ?2, ?3) ORDER BY t0."id";
-- ?1 = text "a_b"
-- ?2 = text "cafe"
-- ?3 = text "istanbul"

-- count
SELECT COUNT(*) FROM "books" t0 WHERE sift_fold(t0."isbn code", 3) IN (?1, ?2, ?3);
-- ?1 = text "a_b"
-- ?2 = text "cafe"
-- ?3 = text "istanbul"
