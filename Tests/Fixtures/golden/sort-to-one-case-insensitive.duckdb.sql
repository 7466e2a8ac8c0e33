-- sort-to-one-case-insensitive (duckdb)
-- entity: Book
-- filter: year > 1995
-- sort: author.name ASC caseInsensitiveCompare:, price DESC
-- limit: 20

-- select
-- refused: sorting by caseInsensitiveCompare: ([c] compares Swift's case folding of the canonical decomposition (NFD), which DuckDB cannot compute (nfc_normalize only); use [cn] where the strings are stored normalized) (1:1)

-- count
-- refused: sorting by caseInsensitiveCompare: ([c] compares Swift's case folding of the canonical decomposition (NFD), which DuckDB cannot compute (nfc_normalize only); use [cn] where the strings are stored normalized) (1:1)
