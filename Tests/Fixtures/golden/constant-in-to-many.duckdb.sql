-- constant-in-to-many (duckdb)
-- entity: Book
-- filter: "Ann" IN tags.name

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE t0."id" IN (SELECT t2."book_id" FROM "book_tags" t2 JOIN "tags" t1 ON t1."id" = t2."tag_id" WHERE t1."name" = $1) ORDER BY t0."id";
-- $1 = text "Ann"

-- count
SELECT COUNT(*) FROM "books" t0 WHERE t0."id" IN (SELECT t2."book_id" FROM "book_tags" t2 JOIN "tags" t1 ON t1."id" = t2."tag_id" WHERE t1."name" = $1);
-- $1 = text "Ann"
