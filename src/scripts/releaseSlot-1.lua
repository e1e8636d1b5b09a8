-- Gives back a cap slot; never below zero (an empty hash disappears by itself).
-- KEYS[1] the chat's or user's hash. ARGV: counter field.
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if n <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) return 0 end
return n
