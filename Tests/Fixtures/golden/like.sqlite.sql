-- like (sqlite)
-- entity: Book
-- filter: title LIKE "a*b?" OR code LIKE[c] "*100%*"

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE (sift_like(t0."title", ?1, 0) OR sift_like(t0."isbn code", ?2, 1)) ORDER BY t0."id";
-- ?1 = text "a*b?"
-- ?2 = text "*100%*"

-- count
SELECT COUNT(*) FROM "books" t0 WHERE (sift_like(t0."title", ?1, 0) OR sift_like(t0."isbn code", ?2, 1));
-- ?1 = text "a*b?"
-- ?2 = text "*100%*"
