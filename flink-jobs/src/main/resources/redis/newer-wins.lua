-- Newer-event-time-wins update of one vehicle's current state, atomic because Redis runs a script as one step.
-- KEYS[1] vehicle hash, KEYS[2] GEO index, KEYS[3] last-seen sorted set
-- ARGV[1] vehicle id, ARGV[2] event time (epoch ms), ARGV[3] longitude, ARGV[4] latitude,
-- ARGV[5] name of the event-time hash field, ARGV[6] number n of hash fields to delete (no value for this fix),
-- ARGV[7..6+n] those fields, ARGV[7+n..] field/value pairs written to the hash
-- Returns 1 when the update was applied, 0 when the stored state is as new or newer.
local stored = redis.call('HGET', KEYS[1], ARGV[5])
if stored and tonumber(stored) >= tonumber(ARGV[2]) then
  return 0
end
local deleted = tonumber(ARGV[6])
if deleted > 0 then
  redis.call('HDEL', KEYS[1], unpack(ARGV, 7, 6 + deleted))
end
redis.call('HSET', KEYS[1], unpack(ARGV, 7 + deleted))
-- Redis GEO only covers latitudes within +-85.05112878 (Web Mercator); a valid fix closer to a pole
-- must not fail the script after the hash was written, so the vehicle leaves the GEO index instead.
local latitude = tonumber(ARGV[4])
if latitude >= -85.05112878 and latitude <= 85.05112878 then
  redis.call('GEOADD', KEYS[2], ARGV[3], ARGV[4], ARGV[1])
else
  redis.call('ZREM', KEYS[2], ARGV[1])
end
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
return 1
