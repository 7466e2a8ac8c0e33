-- to-one-key-paths (postgresql)
-- entity: Book
-- filter: author.name BEGINSWITH[cd] "emi" AND author.age > 40

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE (t0."author_id" IS NOT NULL AND t0."author_id" IN (SELECT t1."id" FROM "authors" t1 WHERE regexp_replace(normalize(replace(lower(upper(replace(t1."name", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD), '[\u0300-\u036F\u0483-\u0489\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE20-\uFE2F]', '', 'g') LIKE $1 ESCAPE '\')) AND (t0."author_id" IS NOT NULL AND t0."author_id" IN (SELECT t2."id" FROM "authors" t2 WHERE t2."age" > $2)) ORDER BY t0."id";
-- $1 = text "emi%"
-- $2 = integer 40

-- count
SELECT COUNT(*) FROM "books" t0 WHERE (t0."author_id" IS NOT NULL AND t0."author_id" IN (SELECT t1."id" FROM "authors" t1 WHERE regexp_replace(normalize(replace(lower(upper(replace(t1."name", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD), '[\u0300-\u036F\u0483-\u0489\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE20-\uFE2F]', '', 'g') LIKE $1 ESCAPE '\')) AND (t0."author_id" IS NOT NULL AND t0."author_id" IN (SELECT t2."id" FROM "authors" t2 WHERE t2."age" > $2));
-- $1 = text "emi%"
-- $2 = integer 40
