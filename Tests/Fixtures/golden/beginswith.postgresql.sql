-- beginswith (postgresql)
-- entity: Book
-- filter: title BEGINSWITH "A"

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE ((normalize(t0."title", NFD) COLLATE "C") >= $1 AND (normalize(t0."title", NFD) COLLATE "C") < $2) ORDER BY t0."id";
-- $1 = text "A"
-- $2 = text "B"

-- count
SELECT COUNT(*) FROM "books" t0 WHERE ((normalize(t0."title", NFD) COLLATE "C") >= $1 AND (normalize(t0."title", NFD) COLLATE "C") < $2);
-- $1 = text "A"
-- $2 = text "B"
