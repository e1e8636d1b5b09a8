-- Before a poll's run: takes the hint (this run answers it), says whether anyone follows, and
-- returns the stored state. KEYS[1] swap hash.
-- Returns {0} when nobody follows; else {1, version, state JSON, last poll time, hint} (the state
-- fields empty before the first poll; hint '' none, '1' ask the service, 'c' redraw from stored
-- data, '2' both).
local key = KEYS[1]
local hint = redis.call('HGET', key, 'h') or ''
redis.call('HDEL', key, 'h')
if tonumber(redis.call('HGET', key, 'n') or '0') <= 0 then return {0} end
local s = redis.call('HMGET', key, 'v', 's', 'p')
if not s[1] or not s[2] then return {1, '', '', '', hint} end
return {1, s[1], s[2], s[3] or '0', hint}
