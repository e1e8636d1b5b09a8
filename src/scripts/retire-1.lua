-- The swap ended (or polling gave up): marks it retired once and lets the hash expire.
-- KEYS[1] swap hash. ARGV: retention (s).
-- Returns the follower entries whose cap slots the caller frees: {targetKey, JSON, ...}; nothing
-- when the swap was retired before (slots are freed once).
local key = KEYS[1]
if redis.call('EXISTS', key) == 0 then return {} end
redis.call('EXPIRE', key, ARGV[1])
if redis.call('HSETNX', key, 'z', '1') == 0 then return {} end
local out = {}
local all = redis.call('HGETALL', key)
for i = 1, #all, 2 do
  if string.sub(all[i], 1, 2) == 'f:' then
    out[#out + 1] = string.sub(all[i], 3)
    out[#out + 1] = all[i + 1]
  end
end
return out
