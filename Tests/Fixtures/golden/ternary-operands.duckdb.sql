-- ternary-operands (duckdb)
-- entity: Book
-- filter: TERNARY(year != nil, year, 0) > 1995 OR (NOT TERNARY(price > 5, title, code) BEGINSWITH[c] "a")

-- select
-- refused: duckdb: [c] compares Swift's case folding of the canonical decomposition (NFD), which DuckDB cannot compute (nfc_normalize only); use [cn] where the strings are stored normalized (1:45)

-- count
-- refused: duckdb: [c] compares Swift's case folding of the canonical decomposition (NFD), which DuckDB cannot compute (nfc_normalize only); use [cn] where the strings are stored normalized (1:45)
