-- sort-to-one-case-insensitive (postgresql)
-- entity: Book
-- filter: year > 1995
-- sort: author.name ASC caseInsensitiveCompare:, price DESC
-- limit: 20

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 LEFT JOIN "authors" t1 ON t1."id" = t0."author_id" WHERE t0."year" > $1 ORDER BY (normalize(replace(lower(upper(replace(t1."name", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD) COLLATE "C") ASC NULLS FIRST, t0."price" DESC NULLS LAST, t0."id" LIMIT $2;
-- $1 = integer 1995
-- $2 = integer 20

-- count
SELECT COUNT(*) FROM (SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 LEFT JOIN "authors" t1 ON t1."id" = t0."author_id" WHERE t0."year" > $1 ORDER BY (normalize(replace(lower(upper(replace(t1."name", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD) COLLATE "C") ASC NULLS FIRST, t0."price" DESC NULLS LAST, t0."id" LIMIT $2) counted;
-- $1 = integer 1995
-- $2 = integer 20
