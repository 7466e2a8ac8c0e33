-- in-string-argument-cd (duckdb)
-- entity: Book
-- filter: code IN[cd] {"a_b", "caf\u{E9}", "\u{130}stanbul"}

-- select
-- refused: duckdb: [d] removes combining marks from the canonical decomposition (NFD), which DuckDB cannot compute (nfc_normalize only) (1:1)

-- count
-- refused: duckdb: [d] removes combining marks from the canonical decomposition (NFD), which DuckDB cannot compute (nfc_normalize only) (1:1)
