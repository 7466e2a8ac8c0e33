-- to-one-key-paths (sqlite)
-- entity: Book
-- filter: author.name BEGINSWITH[cd] "emi" AND author.age > 40

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE (t0."author_id" IS NOT NULL AND +t0."author_id" IN (SELECT t1."id" FROM "authors" t1 WHERE (CASE WHEN typeof(t1."name") = 'text' AND length(t1."name") = length(CAST(t1."name" AS BLOB)) AND 'a' LIKE 'A' THEN t1."name" LIKE ?1 ESCAPE '\' ELSE sift_search(t1."name", ?2, 0, 3) END))) AND (t0."author_id" IS NOT NULL AND +t0."author_id" IN (SELECT t2."id" FROM "authors" t2 WHERE t2."age" > ?3)) ORDER BY t0."id";
-- ?1 = text "emi%"
-- ?2 = text "emi"
-- ?3 = integer 40

-- count
SELECT COUNT(*) FROM "books" t0 WHERE (t0."author_id" IS NOT NULL AND +t0."author_id" IN (SELECT t1."id" FROM "authors" t1 WHERE (CASE WHEN typeof(t1."name") = 'text' AND length(t1."name") = length(CAST(t1."name" AS BLOB)) AND 'a' LIKE 'A' THEN t1."name" LIKE ?1 ESCAPE '\' ELSE sift_search(t1."name", ?2, 0, 3) END))) AND (t0."author_id" IS NOT NULL AND +t0."author_id" IN (SELECT t2."id" FROM "authors" t2 WHERE t2."age" > ?3));
-- ?1 = text "emi%"
-- ?2 = text "emi"
-- ?3 = integer 40
