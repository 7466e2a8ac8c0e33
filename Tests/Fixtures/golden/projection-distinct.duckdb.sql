-- projection-distinct (duckdb)
-- entity: Book
-- filter: ANY tags.name BEGINSWITH "a"
-- sort: author.name ASC
-- distinct
-- properties: author.name, year

-- select
-- refused: duckdb: strings compare by their canonical decomposition (NFD: "e\u{301}" begins with "e", sorts as "e"), which DuckDB cannot compute (nfc_normalize only); add [n] to compare them as stored (1:1)

-- count
-- refused: duckdb: strings compare by their canonical decomposition (NFD: "e\u{301}" begins with "e", sorts as "e"), which DuckDB cannot compute (nfc_normalize only); add [n] to compare them as stored (1:1)
