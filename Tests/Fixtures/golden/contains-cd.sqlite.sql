-- contains-cd (sqlite)
-- entity: Book
-- filter: title CONTAINS[cd] "stra"

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE (CASE WHEN typeof(t0."title") = 'text' AND length(t0."title") = length(CAST(t0."title" AS BLOB)) AND 'a' LIKE 'A' THEN t0."title" LIKE ?1 ESCAPE '\' ELSE sift_search(t0."title", ?2, 2, 3) END) ORDER BY t0."id";
-- ?1 = text "%stra%"
-- ?2 = text "stra"

-- count
SELECT COUNT(*) FROM "books" t0 WHERE (CASE WHEN typeof(t0."title") = 'text' AND length(t0."title") = length(CAST(t0."title" AS BLOB)) AND 'a' LIKE 'A' THEN t0."title" LIKE ?1 ESCAPE '\' ELSE sift_search(t0."title", ?2, 2, 3) END);
-- ?1 = text "%stra%"
-- ?2 = text "stra"
