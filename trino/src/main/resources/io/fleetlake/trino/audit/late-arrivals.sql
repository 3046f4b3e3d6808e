-- Audit question 3, part 2: how many of the rows each snapshot added to fleet.positions were late arrivals, that is
-- had an event_time older than the snapshot's commit by more than a threshold. This is how late positions, replays
-- and backfills become visible.
--
-- Each row is attributed to the snapshot that added its data file ($entries keeps the adding snapshot's id for ADDED
-- and EXISTING entries). Only live rows can be counted: rows of files that a later snapshot removed (a compaction
-- rewrites them into files of its own, REPLACE snapshot) are attributed to that later snapshot.
--
-- Parameters: 1 committed at or after this instant (ISO-8601 string); 2 threshold in milliseconds.
WITH live_files AS (
    SELECT snapshot_id, data_file.file_path AS file_path
    FROM iceberg.fleet."positions$entries"
    WHERE status IN (0, 1)
      AND data_file.content = 0
),
snapshots AS (
    SELECT snapshot_id, committed_at
    FROM iceberg.fleet."positions$snapshots"
    WHERE committed_at >= from_iso8601_timestamp(?)
)
SELECT
    s.snapshot_id,
    count(*) AS live_records,
    count_if(date_diff('millisecond', p.event_time, s.committed_at) > ?) AS late_records,
    min(p.event_time) AS oldest_event_time
FROM iceberg.fleet.positions p
JOIN live_files f ON f.file_path = p."$path"
JOIN snapshots s ON s.snapshot_id = f.snapshot_id
GROUP BY s.snapshot_id
