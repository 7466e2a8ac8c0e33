-- key-against-key (sqlite)
-- entity: Book
-- filter: title ==[c] author.name OR year > author.age

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 LEFT JOIN "authors" t1 ON t1."id" = t0."author_id" WHERE (sift_fold(t0."title", 1) IS sift_fold(t1."name", 1) OR t0."year" > t1."age") ORDER BY t0."id";

-- count
SELECT COUNT(*) FROM "books" t0 LEFT JOIN "authors" t1 ON t1."id" = t0."author_id" WHERE (sift_fold(t0."title", 1) IS sift_fold(t1."name", 1) OR t0."year" > t1."age");
