-- Puts a checked watched address back on the due list, only if it is still watched: the check
-- and the write in one step, so an unwatch that lands during the check always wins.
-- KEYS[1] the state hash, KEYS[2] the due zset (one hash tag). ARGV: member, state JSON, due time.
-- Returns 1 when put back, 0 when the address was unwatched meanwhile.
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
return 1
