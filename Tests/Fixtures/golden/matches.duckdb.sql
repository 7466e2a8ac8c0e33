-- matches (duckdb)
-- entity: Book
-- filter: title MATCHES "[A-Z].*" AND code MATCHES[c] "a(n|m)+"

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE regexp_full_match(t0."title", $1) AND regexp_full_match(t0."isbn code", $2) ORDER BY t0."id";
-- $1 = text "(?:[A-Z][^\\n]*)"
-- $2 = text "(?:[aA]([nN]|[mM])+)"

-- count
SELECT COUNT(*) FROM "books" t0 WHERE regexp_full_match(t0."title", $1) AND regexp_full_match(t0."isbn code", $2);
-- $1 = text "(?:[A-Z][^\\n]*)"
-- $2 = text "(?:[aA]([nN]|[mM])+)"
