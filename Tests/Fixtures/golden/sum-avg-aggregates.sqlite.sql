-- sum-avg-aggregates (sqlite)
-- entity: Book
-- filter: chapters.@sum.pages > 50 OR chapters.@avg.pages < 10

-- select
SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 WHERE ((SELECT CASE WHEN (COUNT(t1."pages") = 0 OR (MAX(t1."pages") <= 9223372036854775807 / NULLIF(COUNT(t1."pages"), 0) AND MIN(t1."pages") >= 0 - 9223372036854775807 / NULLIF(COUNT(t1."pages"), 0))) THEN COALESCE(SUM(t1."pages"), 0) ELSE ABS(COUNT(*) * 0 - 9223372036854775807 - 1) END FROM "chapters" t1 WHERE t1."book_id" = t0."id") > ?1 OR (SELECT CASE WHEN (COUNT(t2."pages") = 0 OR (MAX(t2."pages") <= 9223372036854775807 / NULLIF(COUNT(t2."pages"), 0) AND MIN(t2."pages") >= 0 - 9223372036854775807 / NULLIF(COUNT(t2."pages"), 0))) THEN CAST(COALESCE(SUM(t2."pages"), 0) AS REAL) / NULLIF(COUNT(*), 0) ELSE ABS(COUNT(*) * 0 - 9223372036854775807 - 1) END FROM "chapters" t2 WHERE t2."book_id" = t0."id") < ?2) ORDER BY t0."id";
-- ?1 = integer 50
-- ?2 = integer 10

-- count
SELECT COUNT(*) FROM "books" t0 WHERE ((SELECT CASE WHEN (COUNT(t1."pages") = 0 OR (MAX(t1."pages") <= 9223372036854775807 / NULLIF(COUNT(t1."pages"), 0) AND MIN(t1."pages") >= 0 - 9223372036854775807 / NULLIF(COUNT(t1."pages"), 0))) THEN COALESCE(SUM(t1."pages"), 0) ELSE ABS(COUNT(*) * 0 - 9223372036854775807 - 1) END FROM "chapters" t1 WHERE t1."book_id" = t0."id") > ?1 OR (SELECT CASE WHEN (COUNT(t2."pages") = 0 OR (MAX(t2."pages") <= 9223372036854775807 / NULLIF(COUNT(t2."pages"), 0) AND MIN(t2."pages") >= 0 - 9223372036854775807 / NULLIF(COUNT(t2."pages"), 0))) THEN CAST(COALESCE(SUM(t2."pages"), 0) AS REAL) / NULLIF(COUNT(*), 0) ELSE ABS(COUNT(*) * 0 - 9223372036854775807 - 1) END FROM "chapters" t2 WHERE t2."book_id" = t0."id") < ?2);
-- ?1 = integer 50
-- ?2 = integer 10
