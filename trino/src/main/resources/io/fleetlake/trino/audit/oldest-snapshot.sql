-- How far back time travel by instant reaches in a fleet table: the oldest snapshot of the current snapshot's history
-- that the metadata still has. Trino resolves FOR TIMESTAMP AS OF along that history, so an instant before it has no
-- answer, even when a tag still keeps an older snapshot. parent_id tells the table's first snapshot (no parent) from
-- one whose ancestors expired.
--
-- Placeholder: table, the fleet table name.
SELECT snapshot_id, parent_id, made_current_at
FROM iceberg.fleet."{table}$history"
WHERE is_current_ancestor
ORDER BY made_current_at, snapshot_id
LIMIT 1
