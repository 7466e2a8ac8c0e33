-- sort-offset-limit (postgresql)
-- entity: Book
-- sort: title ASC, year DESC
-- offset: 5
-- limit: 10

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 ORDER BY (normalize(t0."title", NFD) COLLATE "C") ASC, t0."year" DESC NULLS LAST, t0."id" LIMIT $1 OFFSET $2;
-- $1 = integer 10
-- $2 = integer 5

-- count
SELECT COUNT(*) FROM (SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 ORDER BY (normalize(t0."title", NFD) COLLATE "C") ASC, t0."year" DESC NULLS LAST, t0."id" LIMIT $1 OFFSET $2) counted;
-- $1 = integer 10
-- $2 = integer 5
