-- Whether a vehicle has any position at all in the current fleet.positions; asked when an audit finds no rows, to
-- tell an unknown vehicle from a vehicle that was quiet in the range.
--
-- Parameter: 1 vehicle_id.
SELECT count(*) AS positions
FROM (
    SELECT 1
    FROM iceberg.fleet.positions
    WHERE vehicle_id = ?
    LIMIT 1
)
