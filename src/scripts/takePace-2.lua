-- Takes a send slot in a sliding window, unless on hold.
-- KEYS[1] hold (a 429's wait), KEYS[2] window zset; both carry the same hash tag.
-- ARGV: now, member, window ms, limit (0 = no window, only the hold).
-- Returns 0 when taken, else how long to wait (ms).
local hold = redis.call('PTTL', KEYS[1])
if hold > 0 then return hold end
local limit = tonumber(ARGV[4])
if limit <= 0 then return 0 end
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - window)
if redis.call('ZCARD', KEYS[2]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
  return math.max(1, tonumber(oldest[2]) + window - now)
end
redis.call('ZADD', KEYS[2], now, ARGV[2])
redis.call('PEXPIRE', KEYS[2], window)
return 0
