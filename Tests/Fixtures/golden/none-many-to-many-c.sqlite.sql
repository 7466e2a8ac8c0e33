-- none-many-to-many-c (sqlite)
-- entity: Book
-- filter: NOT ANY tags.name ==[c] "ann"

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE NOT EXISTS (SELECT 1 FROM "book_tags" t2 JOIN "tags" t1 ON t1."id" = t2."tag_id" WHERE t2."book_id" = t0."id" AND sift_fold(t1."name", 1) = ?1) ORDER BY t0."id";
-- ?1 = text "ann"

-- count
SELECT COUNT(*) FROM "books" t0 WHERE NOT EXISTS (SELECT 1 FROM "book_tags" t2 JOIN "tags" t1 ON t1."id" = t2."tag_id" WHERE t2."book_id" = t0."id" AND sift_fold(t1."name", 1) = ?1);
-- ?1 = text "ann"
