-- Audit question 4: rejected positions by reason over time, in hour or day buckets (UTC).
--
-- Parameters: 1 bucket unit, 'hour' or 'day'; 2 rejected at or after, inclusive; 3 rejected before, exclusive
-- (ISO-8601 strings). The table is partitioned by day(rejected_at) and reason, so only the range's days are read.
SELECT
    date_trunc(?, rejected_at) AS bucket_start,
    reason,
    count(*) AS rejections,
    count(DISTINCT vehicle_id) AS vehicles
FROM iceberg.fleet.rejected_positions
WHERE rejected_at >= from_iso8601_timestamp(?)
  AND rejected_at < from_iso8601_timestamp(?)
GROUP BY 1, 2
ORDER BY 1, 2
