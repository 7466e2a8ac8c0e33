-- contains-cd (duckdb)
-- entity: Book
-- filter: title CONTAINS[cd] "stra"

-- select
-- refused: duckdb: [d] removes combining marks from the canonical decomposition (NFD), which DuckDB cannot compute (nfc_normalize only; strip_accents removes every script's marks, memory only Latin, Greek and Cyrillic ones) (1:1)

-- count
-- refused: duckdb: [d] removes combining marks from the canonical decomposition (NFD), which DuckDB cannot compute (nfc_normalize only; strip_accents removes every script's marks, memory only Latin, Greek and Cyrillic ones) (1:1)
