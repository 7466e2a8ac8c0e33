-- endswith-c (duckdb)
-- entity: Book
-- filter: title ENDSWITH[c] "E"

-- select
-- refused: duckdb: [c] compares Swift's case folding of the canonical decomposition (NFD), which DuckDB cannot compute (nfc_normalize only); use [cn] where the strings are stored normalized (1:1)

-- count
-- refused: duckdb: [c] compares Swift's case folding of the canonical decomposition (NFD), which DuckDB cannot compute (nfc_normalize only); use [cn] where the strings are stored normalized (1:1)
