-- first-last-ordered (duckdb)
-- entity: Book
-- filter: chapters[FIRST].pages > 10 AND tags[LAST].name != "Ann"

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE (SELECT t1."pages" FROM "chapters" t1 WHERE t1."book_id" = t0."id" ORDER BY t1."position" NULLS FIRST, t1."id" LIMIT 1) > $1 AND ((SELECT t2."name" FROM "book_tags" t3 JOIN "tags" t2 ON t2."id" = t3."tag_id" WHERE t3."book_id" = t0."id" ORDER BY t3."position" DESC NULLS LAST, t2."id" DESC LIMIT 1) <> $2 OR (SELECT t2."name" FROM "book_tags" t3 JOIN "tags" t2 ON t2."id" = t3."tag_id" WHERE t3."book_id" = t0."id" ORDER BY t3."position" DESC NULLS LAST, t2."id" DESC LIMIT 1) IS NULL) ORDER BY t0."id";
-- $1 = integer 10
-- $2 = text "Ann"

-- count
SELECT COUNT(*) FROM "books" t0 WHERE (SELECT t1."pages" FROM "chapters" t1 WHERE t1."book_id" = t0."id" ORDER BY t1."position" NULLS FIRST, t1."id" LIMIT 1) > $1 AND ((SELECT t2."name" FROM "book_tags" t3 JOIN "tags" t2 ON t2."id" = t3."tag_id" WHERE t3."book_id" = t0."id" ORDER BY t3."position" DESC NULLS LAST, t2."id" DESC LIMIT 1) <> $2 OR (SELECT t2."name" FROM "book_tags" t3 JOIN "tags" t2 ON t2."id" = t3."tag_id" WHERE t3."book_id" = t0."id" ORDER BY t3."position" DESC NULLS LAST, t2."id" DESC LIMIT 1) IS NULL);
-- $1 = integer 10
-- $2 = text "Ann"
