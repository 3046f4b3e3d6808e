-- Audit question 1: the track of one vehicle over a half-open event-time range, oldest fix first, as the table
-- stands now or as it stood at a snapshot, a tag or an instant.
--
-- Parameters: 1 vehicle_id; 2 range start, inclusive; 3 range end, exclusive (instants as ISO-8601 strings, for
-- example 2026-11-28T14:00:00.000Z).
-- Placeholder: as_of, the time-travel clause (empty, FOR VERSION AS OF ... or FOR TIMESTAMP AS OF ...). Trino 476 does
-- not bind parameters inside a time-travel clause, so AsOf renders it as a literal.
--
-- SELECT * because time travel reads a snapshot with the schema it was written with: naming a column added later
-- (battery_level, the enrichment columns) would fail for older snapshots. The reader takes the columns it knows.
--
-- Each fix gets its place from fleet.position_places as it is now (fleet geocode writes it; null until then): a place
-- is a property of the coordinates, not of the snapshot the fix was read from.
SELECT p.*, pl.place_name, pl.province
FROM (
  SELECT *
  FROM iceberg.fleet.positions {as_of}
  WHERE vehicle_id = ?
    AND event_time >= from_iso8601_timestamp(?)
    AND event_time < from_iso8601_timestamp(?)
) p
LEFT JOIN iceberg.fleet.position_places pl
  ON pl.vehicle_id = p.vehicle_id AND pl.event_time = p.event_time
ORDER BY event_time, ingest_time
