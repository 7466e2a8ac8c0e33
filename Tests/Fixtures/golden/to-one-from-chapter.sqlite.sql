-- to-one-from-chapter (sqlite)
-- entity: Chapter
-- filter: book.title BEGINSWITH "A" AND book.author.active == 0 AND pages > 3

-- select
SELECT t0."id", t0."name", t0."pages" FROM "chapters" t0 LEFT JOIN "books" t2 ON t2."id" = t0."book_id" LEFT JOIN "authors" t3 ON t3."id" = t2."author_id" WHERE (t0."book_id" IS NOT NULL AND +t0."book_id" IN (SELECT t1."id" FROM "books" t1 WHERE ((t1."title" >= ?1 AND t1."title" < ?2) OR (t1."title" >= ?3 AND t1."title" < ?4 AND (CASE WHEN typeof(t1."title") = 'text' AND length(t1."title") = length(CAST(t1."title" AS BLOB)) THEN substr(t1."title", 1, length(?5)) = ?5 ELSE sift_search(t1."title", ?6, 0, 0) END))))) AND t3."active" = ?7 AND t0."pages" > ?8 ORDER BY t0."id";
-- ?1 = text "A"
-- ?2 = text "B"
-- ?3 = text "\u{C0}"
-- ?4 = text "\u{212C}"
-- ?5 = text "A"
-- ?6 = text "A"
-- ?7 = integer 0
-- ?8 = integer 3

-- count
SELECT COUNT(*) FROM "chapters" t0 LEFT JOIN "books" t2 ON t2."id" = t0."book_id" LEFT JOIN "authors" t3 ON t3."id" = t2."author_id" WHERE (t0."book_id" IS NOT NULL AND +t0."book_id" IN (SELECT t1."id" FROM "books" t1 WHERE ((t1."title" >= ?1 AND t1."title" < ?2) OR (t1."title" >= ?3 AND t1."title" < ?4 AND (CASE WHEN typeof(t1."title") = 'text' AND length(t1."title") = length(CAST(t1."title" AS BLOB)) THEN substr(t1."title", 1, length(?5)) = ?5 ELSE sift_search(t1."title", ?6, 0, 0) END))))) AND t3."active" = ?7 AND t0."pages" > ?8;
-- ?1 = text "A"
-- ?2 = text "B"
-- ?3 = text "\u{C0}"
-- ?4 = text "\u{212C}"
-- ?5 = text "A"
-- ?6 = text "A"
-- ?7 = integer 0
-- ?8 = integer 3
