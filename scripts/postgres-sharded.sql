-- The coordinator of the sharded test profile (scripts/postgres.sh
-- start-sharded): one postgres_fdw server per shard, and
-- sift_create_distributed_table, which turns a table of the coordinator into
-- one hash-partitioned over the shards, the way Citus's
-- create_distributed_table does. Run by psql with the variables shard0_port
-- and shard1_port; the shards are the clusters beside the coordinator, on
-- 127.0.0.1, database sift_test, user postgres (trust authentication).

CREATE EXTENSION postgres_fdw;
-- dblink reaches the shards through the same foreign servers, to create the
-- tables that hold each shard's rows.
CREATE EXTENSION dblink;

-- async_capable is off: with it, on PostgreSQL 15.18, a correlated subquery
-- over a sharded table (Sift's `chapters.@count > 2`: SELECT COUNT(*) FROM
-- chapters WHERE book_id = t0.id, once per book) never returned, the
-- coordinator waiting in AppendReady while the shards waited for the next
-- FETCH; the simple scans ran as Async Foreign Scans and answered alike.
-- SIFT_ASYNC_CAPABLE=true scripts/postgres.sh start-sharded DIR tries it. batch_size: rows moved to
-- a shard go in batches, not one statement a row. fetch_size: rows come
-- back 1,000 at a time rather than 100.
\if :{?async_capable}
\else
\set async_capable false
\endif
CREATE SERVER sift_shard_0 FOREIGN DATA WRAPPER postgres_fdw OPTIONS (
    host '127.0.0.1', port :'shard0_port', dbname 'sift_test',
    async_capable :'async_capable', batch_size '500', fetch_size '1000');
CREATE SERVER sift_shard_1 FOREIGN DATA WRAPPER postgres_fdw OPTIONS (
    host '127.0.0.1', port :'shard1_port', dbname 'sift_test',
    async_capable :'async_capable', batch_size '500', fetch_size '1000');
CREATE USER MAPPING FOR PUBLIC SERVER sift_shard_0 OPTIONS (user 'postgres');
CREATE USER MAPPING FOR PUBLIC SERVER sift_shard_1 OPTIONS (user 'postgres');

-- Replaces the ordinary table `tbl` (of the current schema) by a table of
-- the same name and columns, PARTITION BY HASH (key), whose partitions are
-- foreign tables `<tbl>_shard_<n>`, one on each sift_shard_<n> server, in a
-- schema of the same name there. The rows move with it; it returns how many. On each shard the
-- table keeps the original's primary key and its single-column indexes;
-- the coordinator's table can have neither a primary key nor a foreign key
-- (PostgreSQL refuses unique indexes on a partitioned table with foreign
-- partitions, and foreign keys on foreign tables), so `key` should be the
-- primary key: each key then lives on one shard, where it is unique.
-- It and dblink live in the coordinator's schema public: call it as
-- public.sift_create_distributed_table when public is not on search_path.
CREATE FUNCTION sift_create_distributed_table(tbl text, key text) RETURNS bigint
LANGUAGE plpgsql AS $fn$
DECLARE
    schema_name text := current_schema();
    source oid := format('%I.%I', current_schema(), tbl)::regclass;
    shards text[] := ARRAY(SELECT srvname::text FROM pg_foreign_server
                           WHERE srvname LIKE 'sift\_shard\_%' ORDER BY srvname);
    columns text;
    pk text;
    indexed text[];
    part text;
    c text;
    i int;
    moved bigint;
BEGIN
    SELECT string_agg(format('%I %s%s', a.attname, format_type(a.atttypid, a.atttypmod),
                             CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END), ', ' ORDER BY a.attnum)
      INTO columns
      FROM pg_attribute a WHERE a.attrelid = source AND a.attnum > 0 AND NOT a.attisdropped;
    SELECT string_agg(format('%I', a.attname), ', ' ORDER BY k.n)
      INTO pk
      FROM pg_index x, unnest(x.indkey) WITH ORDINALITY AS k(attnum, n), pg_attribute a
     WHERE x.indrelid = source AND x.indisprimary AND a.attrelid = source AND a.attnum = k.attnum;
    indexed := ARRAY(SELECT a.attname::text FROM pg_index x JOIN pg_attribute a
                       ON a.attrelid = source AND a.attnum = x.indkey[0]
                      WHERE x.indrelid = source AND NOT x.indisprimary AND x.indnatts = 1);
    EXECUTE format('ALTER TABLE %I.%I RENAME TO %I', schema_name, tbl, tbl || '_undistributed');
    EXECUTE format('CREATE TABLE %I.%I (%s) PARTITION BY HASH (%I)', schema_name, tbl, columns, key);
    FOR i IN 0 .. cardinality(shards) - 1 LOOP
        part := format('%s_shard_%s', tbl, i);
        PERFORM public.dblink_exec(shards[i + 1], format('CREATE SCHEMA IF NOT EXISTS %I', schema_name));
        PERFORM public.dblink_exec(shards[i + 1], format('DROP TABLE IF EXISTS %I.%I', schema_name, part));
        PERFORM public.dblink_exec(shards[i + 1], format('CREATE TABLE %I.%I (%s%s)', schema_name, part, columns,
                                                  CASE WHEN pk IS NULL THEN '' ELSE ', PRIMARY KEY (' || pk || ')' END));
        FOREACH c IN ARRAY indexed LOOP
            PERFORM public.dblink_exec(shards[i + 1], format('CREATE INDEX ON %I.%I (%I)', schema_name, part, c));
        END LOOP;
        EXECUTE format('CREATE FOREIGN TABLE %I.%I PARTITION OF %I.%I FOR VALUES WITH (MODULUS %s, REMAINDER %s) '
                       'SERVER %I OPTIONS (schema_name %L, table_name %L)',
                       schema_name, part, schema_name, tbl, cardinality(shards), i, shards[i + 1], schema_name, part);
    END LOOP;
    EXECUTE format('INSERT INTO %I.%I SELECT * FROM %I.%I', schema_name, tbl, schema_name, tbl || '_undistributed');
    GET DIAGNOSTICS moved = ROW_COUNT;
    EXECUTE format('DROP TABLE %I.%I', schema_name, tbl || '_undistributed');
    -- The coordinator plans with its own statistics of the foreign tables.
    EXECUTE format('ANALYZE %I.%I', schema_name, tbl);
    RETURN moved;
END
$fn$;
