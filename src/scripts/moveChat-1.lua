-- Moves a chat's follow of one swap to the chat's new id (a Telegram group upgraded to a
-- supergroup). The delivery record keeps how many key moments were sent and whether the chat was
-- told tracking stopped; the card ref is dropped (the old chat's messages cannot be edited from
-- the new one) and the card version reset, so the next notify sends a fresh card there.
-- KEYS[1] swap hash. ARGV: old targetKey, new targetKey.
-- Returns {0} when the old chat did not follow; {1, held} moved; {2, held, follower JSON} when
-- the new chat already followed it (the old follow is dropped). held '1': the follow holds cap
-- slots (the swap has not ended), to carry over or give back.
local key = KEYS[1]
local from, to = ARGV[1], ARGV[2]
local entry = redis.call('HGET', key, 'f:' .. from)
if not entry then return {0} end
local record = redis.call('HGET', key, 'r:' .. from)
redis.call('HDEL', key, 'f:' .. from, 'r:' .. from)
local held = '1'
if redis.call('HEXISTS', key, 'z') == 1 then held = '' end
if redis.call('HEXISTS', key, 'f:' .. to) == 1 then
  redis.call('HINCRBY', key, 'n', -1)
  return {2, held, entry}
end
redis.call('HSET', key, 'f:' .. to, entry)
if record then
  local ok, r = pcall(cjson.decode, record)
  if ok and type(r) == 'table' then
    local moved = {v = 0, m = r.m or 0}
    if r.x then moved.x = r.x end
    redis.call('HSET', key, 'r:' .. to, cjson.encode(moved))
  end
end
return {1, held}
