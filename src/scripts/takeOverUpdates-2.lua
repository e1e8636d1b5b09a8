-- Takes over updates whose lease lapsed (their process died) and returns their JSON.
-- KEYS: in-flight zset, in-flight data hash. ARGV: update key prefix, owner, leaseMs, max.
-- The update keys are built from ARGV[1]: they share the bot's hash tag with KEYS.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[4]))
local out = {}
for _, id in ipairs(ids) do
  local k = ARGV[1] .. id
  local v = redis.call('GET', k)
  local data = redis.call('HGET', KEYS[2], id)
  if v == 'done' or not data then
    redis.call('ZREM', KEYS[1], id)
    redis.call('HDEL', KEYS[2], id)
  elseif not v then
    redis.call('SET', k, 'p:' .. ARGV[2], 'PX', ARGV[3])
    redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), id)
    table.insert(out, data)
  end
end
return out
