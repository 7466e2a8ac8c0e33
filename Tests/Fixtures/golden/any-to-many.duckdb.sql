-- any-to-many (duckdb)
-- entity: Book
-- filter: ANY chapters.pages > 30

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE t0."id" IN (SELECT t1."book_id" FROM "chapters" t1 WHERE t1."pages" > $1) ORDER BY t0."id";
-- $1 = integer 30

-- count
SELECT COUNT(*) FROM "books" t0 WHERE t0."id" IN (SELECT t1."book_id" FROM "chapters" t1 WHERE t1."pages" > $1);
-- $1 = integer 30
