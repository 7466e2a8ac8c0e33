-- key-against-key (postgresql)
-- entity: Book
-- filter: title ==[c] author.name OR year > author.age

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 LEFT JOIN "authors" t1 ON t1."id" = t0."author_id" WHERE (normalize(replace(lower(upper(replace(t0."title", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD) IS NOT DISTINCT FROM normalize(replace(lower(upper(replace(t1."name", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD) OR t0."year" > t1."age") ORDER BY t0."id";

-- count
SELECT COUNT(*) FROM "books" t0 LEFT JOIN "authors" t1 ON t1."id" = t0."author_id" WHERE (normalize(replace(lower(upper(replace(t0."title", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD) IS NOT DISTINCT FROM normalize(replace(lower(upper(replace(t1."name", chr(304), 'i' || chr(775)))), chr(223), 'ss'), NFD) OR t0."year" > t1."age");
