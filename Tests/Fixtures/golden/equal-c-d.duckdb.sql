-- equal-c-d (duckdb)
-- entity: Book
-- filter: title ==[c] "ann" OR code ==[d] "cafe" OR title ==[cd] "emile"

-- select
-- refused: duckdb: [c] compares Swift's case folding of the canonical decomposition (NFD), which DuckDB cannot compute (nfc_normalize only); use [cn] where the strings are stored normalized (1:1)

-- count
-- refused: duckdb: [c] compares Swift's case folding of the canonical decomposition (NFD), which DuckDB cannot compute (nfc_normalize only); use [cn] where the strings are stored normalized (1:1)
