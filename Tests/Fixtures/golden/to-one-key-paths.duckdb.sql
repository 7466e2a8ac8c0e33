-- to-one-key-paths (duckdb)
-- entity: Book
-- filter: author.name BEGINSWITH[cd] "emi" AND author.age > 40

-- select
-- refused: duckdb: [d] removes combining marks from the canonical decomposition (NFD), which DuckDB cannot compute (nfc_normalize only; strip_accents removes every script's marks, memory only Latin, Greek and Cyrillic ones) (1:1)

-- count
-- refused: duckdb: [d] removes combining marks from the canonical decomposition (NFD), which DuckDB cannot compute (nfc_normalize only; strip_accents removes every script's marks, memory only Latin, Greek and Cyrillic ones) (1:1)
