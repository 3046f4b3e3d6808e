-- Vehicle ids close to one that has no positions, for the "did you mean" of an unknown vehicle: same prefix, or at
-- most two edits away, case-insensitive. Reads only the vehicle_id column.
--
-- Parameters: 1 LIKE pattern of the prefix (escaped with backslash); 2 and 3 the vehicle id asked for.
SELECT vehicle_id
FROM (SELECT DISTINCT vehicle_id FROM iceberg.fleet.positions)
WHERE lower(vehicle_id) LIKE lower(?) ESCAPE '\'
   OR levenshtein_distance(lower(vehicle_id), lower(?)) <= 2
ORDER BY levenshtein_distance(lower(vehicle_id), lower(?)), vehicle_id
LIMIT 5
