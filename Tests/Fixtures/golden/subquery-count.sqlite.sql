-- subquery-count (sqlite)
-- entity: Book
-- filter: SUBQUERY(chapters, $c, $c.pages > 10 AND $c.name BEGINSWITH[c] "a").@count > 1

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE (SELECT COUNT(*) FROM "chapters" t1 WHERE t1."book_id" = t0."id" AND (t1."pages" > ?1 AND (CASE WHEN typeof(t1."name") = 'text' AND length(t1."name") = length(CAST(t1."name" AS BLOB)) AND 'a' LIKE 'A' THEN t1."name" LIKE ?2 ESCAPE '\' ELSE sift_search(t1."name", ?3, 0, 1) END))) > ?4 ORDER BY t0."id";
-- ?1 = integer 10
-- ?2 = text "a%"
-- ?3 = text "a"
-- ?4 = integer 1

-- count
SELECT COUNT(*) FROM "books" t0 WHERE (SELECT COUNT(*) FROM "chapters" t1 WHERE t1."book_id" = t0."id" AND (t1."pages" > ?1 AND (CASE WHEN typeof(t1."name") = 'text' AND length(t1."name") = length(CAST(t1."name" AS BLOB)) AND 'a' LIKE 'A' THEN t1."name" LIKE ?2 ESCAPE '\' ELSE sift_search(t1."name", ?3, 0, 1) END))) > ?4;
-- ?1 = integer 10
-- ?2 = text "a%"
-- ?3 = text "a"
-- ?4 = integer 1
