-- A user's command rate: a token bucket refilled continuously (bot/kernel/rate-limit.ts), taken
-- by takeToken-1.lua and admit-4.lua. Returns allowed (0|1) and the wait (ms) when not.
local function take_token(key, capacity, per_ms, now)
  local data = redis.call('HMGET', key, 'tokens', 'ts')
  local tokens = tonumber(data[1])
  local ts = tonumber(data[2])
  if tokens == nil or ts == nil then tokens = capacity; ts = now end
  if now > ts then
    tokens = math.min(capacity, tokens + (now - ts) * per_ms)
    ts = now
  end
  local allowed = 0
  local wait = 0
  if tokens >= 1 then
    tokens = tokens - 1
    allowed = 1
  else
    wait = math.ceil((1 - tokens) / per_ms)
  end
  redis.call('HSET', key, 'tokens', tostring(tokens), 'ts', tostring(ts))
  redis.call('PEXPIRE', key, math.ceil(capacity / per_ms) + 60000)
  return allowed, wait
end
