-- to-one-key-paths (sqlite)
-- entity: Book
-- filter: author.name BEGINSWITH[cd] "emi" AND author.age > 40

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE (t0."author_id" IS NOT NULL AND +t0."author_id" IN (SELECT t1."id" FROM "authors" t1 WHERE sift_search(t1."name", ?1, 0, 3))) AND (t0."author_id" IS NOT NULL AND +t0."author_id" IN (SELECT t2."id" FROM "authors" t2 WHERE t2."age" > ?2)) ORDER BY t0."id";
-- ?1 = text "emi"
-- ?2 = integer 40

-- count
SELECT COUNT(*) FROM "books" t0 WHERE (t0."author_id" IS NOT NULL AND +t0."author_id" IN (SELECT t1."id" FROM "authors" t1 WHERE sift_search(t1."name", ?1, 0, 3))) AND (t0."author_id" IS NOT NULL AND +t0."author_id" IN (SELECT t2."id" FROM "authors" t2 WHERE t2."age" > ?2));
-- ?1 = text "emi"
-- ?2 = integer 40
