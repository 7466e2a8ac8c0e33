-- sort-offset-limit (duckdb)
-- entity: Book
-- sort: title ASC, year DESC
-- offset: 5
-- limit: 10

-- select
-- refused: sorting by compare: (strings compare by their canonical decomposition (NFD: "e\u{301}" begins with "e", sorts as "e"), which DuckDB cannot compute (nfc_normalize only); add [n] to compare them as stored) (1:1)

-- count
-- refused: sorting by compare: (strings compare by their canonical decomposition (NFD: "e\u{301}" begins with "e", sorts as "e"), which DuckDB cannot compute (nfc_normalize only); add [n] to compare them as stored) (1:1)
