-- to-one-from-chapter (postgresql)
-- entity: Chapter
-- filter: book.title BEGINSWITH "A" AND book.author.active == 0 AND pages > 3

-- select
SELECT t0."id", t0."name", t0."pages" FROM "chapters" t0 LEFT JOIN "books" t2 ON t2."id" = t0."book_id" LEFT JOIN "authors" t3 ON t3."id" = t2."author_id" WHERE (t0."book_id" IS NOT NULL AND t0."book_id" IN (SELECT t1."id" FROM "books" t1 WHERE ((normalize(t1."title", NFD) COLLATE "C") >= $1 AND (normalize(t1."title", NFD) COLLATE "C") < $2))) AND t3."active" = $3 AND t0."pages" > $4 ORDER BY t0."id";
-- $1 = text "A"
-- $2 = text "B"
-- $3 = boolean false
-- $4 = integer 3

-- count
SELECT COUNT(*) FROM "chapters" t0 LEFT JOIN "books" t2 ON t2."id" = t0."book_id" LEFT JOIN "authors" t3 ON t3."id" = t2."author_id" WHERE (t0."book_id" IS NOT NULL AND t0."book_id" IN (SELECT t1."id" FROM "books" t1 WHERE ((normalize(t1."title", NFD) COLLATE "C") >= $1 AND (normalize(t1."title", NFD) COLLATE "C") < $2))) AND t3."active" = $3 AND t0."pages" > $4;
-- $1 = text "A"
-- $2 = text "B"
-- $3 = boolean false
-- $4 = integer 3
