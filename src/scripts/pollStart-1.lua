-- Before a poll's request: takes the webhook hint (this run answers it), says whether anyone
-- follows, and returns the stored state. KEYS[1] swap hash.
-- Returns {0} when nobody follows; else {1, version, state JSON, last poll time} (the last three
-- absent before the first poll).
local key = KEYS[1]
redis.call('HDEL', key, 'h')
if tonumber(redis.call('HGET', key, 'n') or '0') <= 0 then return {0} end
local s = redis.call('HMGET', key, 'v', 's', 'p')
if not s[1] or not s[2] then return {1} end
return {1, s[1], s[2], s[3] or '0'}
