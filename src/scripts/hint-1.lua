-- A webhook said this swap changed: marks the hint, only on a swap someone follows (a webhook
-- about any other swap must not create a hash that never expires).
-- KEYS[1] swap hash. Returns the number of followers.
local n = tonumber(redis.call('HGET', KEYS[1], 'n') or '0')
if n > 0 then redis.call('HSET', KEYS[1], 'h', '1') end
return n
