-- projection-distinct (sqlite)
-- entity: Book
-- filter: ANY tags.name BEGINSWITH "a"
-- sort: author.name ASC
-- distinct
-- properties: author.name, year

-- select
SELECT d."author.name", d."year" FROM (SELECT DISTINCT t1."name" AS "author.name", t0."year" AS "year" FROM "books" t0 LEFT JOIN "authors" t1 ON t1."id" = t0."author_id" WHERE t0."id" IN (SELECT t3."book_id" FROM "book_tags" t3 JOIN "tags" t2 ON t2."id" = t3."tag_id" WHERE ((t2."name" >= ?1 AND t2."name" < ?2) OR (t2."name" >= ?3 AND t2."name" < ?4 AND (CASE WHEN typeof(t2."name") = 'text' AND length(t2."name") = length(CAST(t2."name" AS BLOB)) THEN substr(t2."name", 1, length(?5)) = ?5 ELSE sift_search(t2."name", ?6, 0, 0) END))))) d ORDER BY d."author.name" COLLATE sift_compare ASC, 1, 2;
-- ?1 = text "a"
-- ?2 = text "b"
-- ?3 = text "\u{E0}"
-- ?4 = text "\u{1EB8}"
-- ?5 = text "a"
-- ?6 = text "a"

-- count
SELECT COUNT(*) FROM (SELECT d."author.name", d."year" FROM (SELECT DISTINCT t1."name" AS "author.name", t0."year" AS "year" FROM "books" t0 LEFT JOIN "authors" t1 ON t1."id" = t0."author_id" WHERE t0."id" IN (SELECT t3."book_id" FROM "book_tags" t3 JOIN "tags" t2 ON t2."id" = t3."tag_id" WHERE ((t2."name" >= ?1 AND t2."name" < ?2) OR (t2."name" >= ?3 AND t2."name" < ?4 AND (CASE WHEN typeof(t2."name") = 'text' AND length(t2."name") = length(CAST(t2."name" AS BLOB)) THEN substr(t2."name", 1, length(?5)) = ?5 ELSE sift_search(t2."name", ?6, 0, 0) END))))) d) counted;
-- ?1 = text "a"
-- ?2 = text "b"
-- ?3 = text "\u{E0}"
-- ?4 = text "\u{1EB8}"
-- ?5 = text "a"
-- ?6 = text "a"
