-- Takes one slot of a cap counter (a chat's or a user's unfinished follows) if one is free.
-- KEYS[1] the chat's or user's hash. ARGV: counter field, the cap (0 = count without a cap).
-- Returns 1 taken, 0 full.
local cap = tonumber(ARGV[2])
if cap > 0 and tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0') >= cap then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
return 1
