-- to-one-key-paths (duckdb)
-- entity: Book
-- filter: author.name BEGINSWITH[cd] "emi" AND author.age > 40

-- select
-- refused: duckdb: [d] removes combining marks from the canonical decomposition (NFD), which DuckDB cannot compute (nfc_normalize only) (1:1)

-- count
-- refused: duckdb: [d] removes combining marks from the canonical decomposition (NFD), which DuckDB cannot compute (nfc_normalize only) (1:1)
