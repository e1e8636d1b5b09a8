-- One completed swap's durations into its route's histograms (contracts/route-times.ts).
-- KEYS[1] the route's hash. ARGV: week slot, oldest slot kept, TTL (ms), bucket count,
-- bucket of "deposit seen -> completed" (-1: none), bucket of "confirmed -> completed" (-1: none).
local slot = ARGV[1]
local oldest = tonumber(ARGV[2])
local n = tonumber(ARGV[4])

local function add(kind, bucket)
  if bucket < 0 then return end
  local field = slot .. ':' .. kind
  local raw = redis.call('HGET', KEYS[1], field)
  local counts = {}
  for i = 1, n do counts[i] = 0 end
  if raw then
    local i = 1
    for v in string.gmatch(raw, '[^,]+') do
      if i <= n then counts[i] = tonumber(v) or 0 end
      i = i + 1
    end
  end
  counts[bucket + 1] = counts[bucket + 1] + 1
  redis.call('HSET', KEYS[1], field, table.concat(counts, ','))
end

add('s', tonumber(ARGV[5]))
add('c', tonumber(ARGV[6]))
-- Weeks past the window are dropped: the figures stay recent and the hash small.
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
  local s = tonumber(string.match(field, '^(%d+):'))
  if s == nil or s < oldest then redis.call('HDEL', KEYS[1], field) end
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
