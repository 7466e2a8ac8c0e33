-- subquery-count (duckdb)
-- entity: Book
-- filter: SUBQUERY(chapters, $c, $c.pages > 10 AND $c.name BEGINSWITH[c] "a").@count > 1

-- select
-- refused: duckdb: [c] compares Swift's case folding of the canonical decomposition (NFD), which DuckDB cannot compute (nfc_normalize only); use [cn] where the strings are stored normalized (1:42)

-- count
-- refused: duckdb: [c] compares Swift's case folding of the canonical decomposition (NFD), which DuckDB cannot compute (nfc_normalize only); use [cn] where the strings are stored normalized (1:42)
