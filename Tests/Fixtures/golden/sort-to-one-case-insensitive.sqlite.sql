-- sort-to-one-case-insensitive (sqlite)
-- entity: Book
-- filter: year > 1995
-- sort: author.name ASC caseInsensitiveCompare:, price DESC
-- limit: 20

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 LEFT JOIN "authors" t1 ON t1."id" = t0."author_id" WHERE t0."year" > ?1 ORDER BY t1."name" COLLATE sift_case_insensitive ASC, t0."price" DESC, t0."id" LIMIT ?2;
-- ?1 = integer 1995
-- ?2 = integer 20

-- count
SELECT COUNT(*) FROM (SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 LEFT JOIN "authors" t1 ON t1."id" = t0."author_id" WHERE t0."year" > ?1 ORDER BY t1."name" COLLATE sift_case_insensitive ASC, t0."price" DESC, t0."id" LIMIT ?2) counted;
-- ?1 = integer 1995
-- ?2 = integer 20
