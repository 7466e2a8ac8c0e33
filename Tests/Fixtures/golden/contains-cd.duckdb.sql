-- contains-cd (duckdb)
-- entity: Book
-- filter: title CONTAINS[cd] "stra"

-- select
-- refused: duckdb: [d] removes combining marks from the canonical decomposition (NFD), which DuckDB cannot compute (nfc_normalize only) (1:1)

-- count
-- refused: duckdb: [d] removes combining marks from the canonical decomposition (NFD), which DuckDB cannot compute (nfc_normalize only) (1:1)
