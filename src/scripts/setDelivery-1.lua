-- Records a chat's delivery only while it still follows the swap (no resurrection after
-- /untrack) and only over the record the caller read: two runs for one chat (a stalled job picked
-- up while its first worker still runs) cannot both send the same message.
-- KEYS[1] swap hash. ARGV: targetKey, new record, record read ('' = none).
-- Returns 1 saved, 0 not following, -1 changed meanwhile.
local key = KEYS[1]
if redis.call('HEXISTS', key, 'f:' .. ARGV[1]) == 0 then return 0 end
local cur = redis.call('HGET', key, 'r:' .. ARGV[1])
if (cur or '') ~= ARGV[3] then return -1 end
redis.call('HSET', key, 'r:' .. ARGV[1], ARGV[2])
return 1
