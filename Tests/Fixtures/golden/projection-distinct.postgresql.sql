-- projection-distinct (postgresql)
-- entity: Book
-- filter: ANY tags.name BEGINSWITH "a"
-- sort: author.name ASC
-- distinct
-- properties: author.name, year

-- select
SELECT d."author.name", d."year" FROM (SELECT DISTINCT t1."name" AS "author.name", t0."year" AS "year" FROM "books" t0 LEFT JOIN "authors" t1 ON t1."id" = t0."author_id" WHERE t0."id" IN (SELECT t3."book_id" FROM "book_tags" t3 JOIN "tags" t2 ON t2."id" = t3."tag_id" WHERE ((normalize(t2."name", NFD) COLLATE "C") >= $1 AND (normalize(t2."name", NFD) COLLATE "C") < $2))) d ORDER BY (normalize(d."author.name", NFD) COLLATE "C") ASC NULLS FIRST, 1, 2;
-- $1 = text "a"
-- $2 = text "b"

-- count
SELECT COUNT(*) FROM (SELECT d."author.name", d."year" FROM (SELECT DISTINCT t1."name" AS "author.name", t0."year" AS "year" FROM "books" t0 LEFT JOIN "authors" t1 ON t1."id" = t0."author_id" WHERE t0."id" IN (SELECT t3."book_id" FROM "book_tags" t3 JOIN "tags" t2 ON t2."id" = t3."tag_id" WHERE ((normalize(t2."name", NFD) COLLATE "C") >= $1 AND (normalize(t2."name", NFD) COLLATE "C") < $2))) d) counted;
-- $1 = text "a"
-- $2 = text "b"
