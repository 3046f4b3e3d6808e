-- Newer-event-time-wins update of many vehicles' current state in one call; Redis runs a script as one atomic step.
-- KEYS[1] GEO index, KEYS[2] last-seen sorted set, KEYS[3] expiry sorted set (vehicle id -> when its hash expires,
-- epoch ms of Redis' clock), KEYS[3 + v] hash of vehicle v
-- ARGV[1] number n of hash fields per vehicle; ARGV[2], ARGV[3], ARGV[4], ARGV[5]: positions (1..n) of the vehicle
-- id, event time (epoch ms), latitude and longitude among them; ARGV[6] the vehicles' time to live in ms;
-- ARGV[7..6+n] the field names; then, per vehicle in the order of KEYS, its n values in the order of the names. An
-- empty value deletes the field (this fix has no value for it, so no value of an earlier fix outlives it).
-- Every applied vehicle's hash expires ttl ms after this write (unseen for that long, it leaves Redis); vehicles whose
-- hash expired leave the GEO index and the last-seen set here, up to 256 per call (Redis' clock for both, so they
-- agree).
-- Returns, per vehicle: 1 applied, 0 the stored state is as new or newer, -1 the vehicle's key holds something else
-- than a hash (left alone; the other vehicles are still applied).
local n = tonumber(ARGV[1])
local idAt, timeAt, latitudeAt, longitudeAt = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local ttl = tonumber(ARGV[6])
local names = 6
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local expired = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now, 'LIMIT', 0, 256)
if #expired > 0 then
  redis.call('ZREM', KEYS[1], unpack(expired))
  redis.call('ZREM', KEYS[2], unpack(expired))
  redis.call('ZREM', KEYS[3], unpack(expired))
end
local eventTimeField = ARGV[names + timeAt]
local results = {}
for v = 1, #KEYS - 3 do
  local key = KEYS[3 + v]
  local base = names + n * v
  local eventTime = tonumber(ARGV[base + timeAt])
  local stored = redis.pcall('HGET', key, eventTimeField)
  if type(stored) == 'table' and stored.err then
    results[v] = -1
  elseif stored and tonumber(stored) and tonumber(stored) >= eventTime then
    results[v] = 0
  else
    local written, deleted = {}, {}
    for f = 1, n do
      local value = ARGV[base + f]
      if value == '' then
        deleted[#deleted + 1] = ARGV[names + f]
      else
        written[#written + 1] = ARGV[names + f]
        written[#written + 1] = value
      end
    end
    if #deleted > 0 then
      redis.call('HDEL', key, unpack(deleted))
    end
    redis.call('HSET', key, unpack(written))
    redis.call('PEXPIRE', key, ttl)
    local id = ARGV[base + idAt]
    -- Redis GEO only covers latitudes within +-85.05112878 (Web Mercator); a valid fix closer to a pole must not
    -- fail the script, so the vehicle leaves the GEO index instead.
    local latitude = tonumber(ARGV[base + latitudeAt])
    if latitude >= -85.05112878 and latitude <= 85.05112878 then
      redis.call('GEOADD', KEYS[1], ARGV[base + longitudeAt], ARGV[base + latitudeAt], id)
    else
      redis.call('ZREM', KEYS[1], id)
    end
    redis.call('ZADD', KEYS[2], eventTime, id)
    redis.call('ZADD', KEYS[3], now + ttl, id)
    results[v] = 1
  end
end
return results
