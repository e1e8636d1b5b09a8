-- After a poll's request. KEYS[1] swap hash.
-- ARGV: the version the poll read, poll time, state JSON ('' = unchanged), card data ('' =
-- unchanged), the new version, new moments as JSON array elements without brackets ('' = none).
-- A changed state is stored only over the version read (a stalled duplicate run stored a newer
-- one first: it then notifies nobody). A quiet poll writes only its time.
-- Returns {saved, hinted, targetKey and follower JSON of each chat that is behind...}: the check
-- that every chat has the newest card and every moment runs inside Redis at each poll, so a
-- notification a crash left undelivered is queued again without the worker reading any of it.
local key = KEYS[1]
local hinted = redis.call('HEXISTS', key, 'h')
if ARGV[3] ~= '' then
  if tonumber(redis.call('HGET', key, 'v') or '0') ~= tonumber(ARGV[1]) then return {0, hinted} end
  redis.call('HSET', key, 'v', ARGV[5], 's', ARGV[3], 'p', ARGV[2])
  if ARGV[4] ~= '' then redis.call('HSET', key, 'd', ARGV[4]) end
  if ARGV[6] ~= '' then
    local m = redis.call('HGET', key, 'm')
    if m then m = string.sub(m, 1, -2) .. ',' .. ARGV[6] .. ']' else m = '[' .. ARGV[6] .. ']' end
    redis.call('HSET', key, 'm', m)
  end
elseif redis.call('HEXISTS', key, 'v') == 1 then
  redis.call('HSET', key, 'p', ARGV[2])
end
local out = {1, hinted}
local version = tonumber(redis.call('HGET', key, 'v') or '0')
local m = redis.call('HGET', key, 'm')
local moments = 0
if m then moments = #cjson.decode(m) end
local all = redis.call('HGETALL', key)
local fields = {}
for i = 1, #all, 2 do fields[all[i]] = all[i + 1] end
for name, entry in pairs(fields) do
  if string.sub(name, 1, 2) == 'f:' then
    local tk = string.sub(name, 3)
    local raw = fields['r:' .. tk]
    local behind = true
    if raw then
      local ok, d = pcall(cjson.decode, raw)
      behind = not ok or type(d) ~= 'table' or (tonumber(d.v) or 0) < version or (tonumber(d.m) or 0) < moments
    end
    if behind then
      out[#out + 1] = tk
      out[#out + 1] = entry
    end
  end
end
return out
