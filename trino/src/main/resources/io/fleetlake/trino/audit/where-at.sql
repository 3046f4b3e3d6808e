-- Audit question 2: where a vehicle was at an instant, that is its newest fix with event_time at or before the
-- instant, as known at another instant (time travel), for example "where was bus-0042 at 14:02 last Tuesday, as we
-- knew it at 14:05".
--
-- Parameters: 1 vehicle_id; 2 start of the look-back window, exclusive; 3 the instant, inclusive (ISO-8601 strings).
-- The look-back window keeps the scan to the few day partitions before the instant instead of the whole history.
-- Placeholder: as_of, the time-travel clause (see track.sql).
-- The fix's place as in track.sql.
SELECT p.*, pl.place_name, pl.province
FROM (
  SELECT *
  FROM iceberg.fleet.positions {as_of}
  WHERE vehicle_id = ?
    AND event_time > from_iso8601_timestamp(?)
    AND event_time <= from_iso8601_timestamp(?)
  ORDER BY event_time DESC, ingest_time DESC
  LIMIT 1
) p
LEFT JOIN iceberg.fleet.position_places pl
  ON pl.vehicle_id = p.vehicle_id AND pl.event_time = p.event_time
