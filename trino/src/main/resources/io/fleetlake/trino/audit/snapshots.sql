-- Audit question 3, part 1: what each snapshot of a fleet table did, oldest first.
--
-- Parameter: 1 committed at or after this instant (ISO-8601 string).
-- Placeholder: table, the fleet table name (positions, rejected_positions or vehicle_minutes).
-- A snapshot without a record count in its summary (the empty snapshot of a CREATE TABLE) added no records.
SELECT
    snapshot_id,
    parent_id,
    committed_at,
    operation,
    coalesce(CAST(element_at(summary, 'added-records') AS bigint), 0) AS added_records,
    coalesce(CAST(element_at(summary, 'deleted-records') AS bigint), 0) AS deleted_records,
    coalesce(CAST(element_at(summary, 'total-records') AS bigint), 0) AS total_records
FROM iceberg.fleet."{table}$snapshots"
WHERE committed_at >= from_iso8601_timestamp(?)
ORDER BY committed_at, snapshot_id
