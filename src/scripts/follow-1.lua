-- Adds a chat's follower entry to a swap's hash; the caller reserved the chat and user cap slots.
-- KEYS[1] swap hash. ARGV: targetKey, follower JSON, creator ('1' or '').
-- Returns 0: already following; 1: followed; 2: followed a swap that already ended (its slots
-- are not held: the caller gives them back).
local key = KEYS[1]
local f = 'f:' .. ARGV[1]
if redis.call('HEXISTS', key, f) == 1 then return 0 end
redis.call('HSET', key, f, ARGV[2])
redis.call('HINCRBY', key, 'n', 1)
local r = 'r:' .. ARGV[1]
if redis.call('HEXISTS', key, r) == 0 then
  local m = redis.call('HGET', key, 'm')
  local moments = 0
  if m then moments = #cjson.decode(m) end
  local version = 0
  -- The creator is being handed the deposit card: their first status card waits until the
  -- adapter reports it (depositCard-1.lua makes the card due), else for the first change, so it
  -- can only ever appear below the deposit card.
  if ARGV[3] == '1' and not redis.call('HGET', key, 'v') then version = 1 end
  redis.call('HSET', key, r, cjson.encode({v = version, m = moments}))
end
if redis.call('HEXISTS', key, 'z') == 1 then return 2 end
redis.call('PERSIST', key)
return 1
