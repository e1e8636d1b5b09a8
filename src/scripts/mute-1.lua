-- Mutes or unmutes one chat's follow of a swap (its follower entry's `m`), leaving the rest of
-- the entry as it is. KEYS[1] swap hash. ARGV: targetKey, '1' to mute, '' to unmute.
-- Returns 0 when the chat does not follow the swap, else 1.
local key = KEYS[1]
local f = 'f:' .. ARGV[1]
local entry = redis.call('HGET', key, f)
if not entry then return 0 end
local o = cjson.decode(entry)
if ARGV[2] == '1' then o.m = 1 else o.m = nil end
redis.call('HSET', key, f, cjson.encode(o))
return 1
