-- nil-checks (duckdb)
-- entity: Book
-- filter: author == nil OR code != nil OR year == nil

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE (t0."author_id" IS NULL OR t0."isbn code" IS NOT NULL OR t0."year" IS NULL) ORDER BY t0."id";

-- count
SELECT COUNT(*) FROM "books" t0 WHERE (t0."author_id" IS NULL OR t0."isbn code" IS NOT NULL OR t0."year" IS NULL);
