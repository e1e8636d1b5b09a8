-- Removes a chat's follower entry and delivery record from a swap's hash.
-- KEYS[1] swap hash. ARGV: targetKey, retention (s): a swap nobody follows any more expires.
-- Returns {0} when the chat did not follow; else {1, follower JSON, slots held ('1' unless the
-- swap ended), followers left}.
local key = KEYS[1]
local f = 'f:' .. ARGV[1]
local entry = redis.call('HGET', key, f)
if not entry then return {0} end
redis.call('HDEL', key, f, 'r:' .. ARGV[1])
local n = redis.call('HINCRBY', key, 'n', -1)
if n <= 0 then redis.call('EXPIRE', key, ARGV[2]) end
local held = '1'
if redis.call('HEXISTS', key, 'z') == 1 then held = '' end
return {1, entry, held, n}
