-- Claims a Telegram update for this process with a lease (platforms/telegram/dedup.ts).
-- KEYS: update key, in-flight zset, in-flight data hash. ARGV: owner, leaseMs, update id, update JSON.
-- Returns 1 when claimed, 0 when it is in hand elsewhere or done.
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('SET', KEYS[1], 'p:' .. ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[3])
redis.call('HSET', KEYS[3], ARGV[3], ARGV[4])
return 1
