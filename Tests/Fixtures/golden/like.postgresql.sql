-- like (postgresql)
-- entity: Book
-- filter: title LIKE "a*b?" OR code LIKE[c] "*100%*"

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE ((normalize(t0."title", NFD) COLLATE "C") LIKE $1 ESCAPE '\' OR normalize(replace(lower(upper(replace(t0."isbn code", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD) LIKE $2 ESCAPE '\') ORDER BY t0."id";
-- $1 = text "a%b_"
-- $2 = text "%100\\%%"

-- count
SELECT COUNT(*) FROM "books" t0 WHERE ((normalize(t0."title", NFD) COLLATE "C") LIKE $1 ESCAPE '\' OR normalize(replace(lower(upper(replace(t0."isbn code", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD) LIKE $2 ESCAPE '\');
-- $1 = text "a%b_"
-- $2 = text "%100\\%%"
