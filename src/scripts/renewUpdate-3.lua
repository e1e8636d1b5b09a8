-- Renews this process's lease on an update it handles. KEYS as claimUpdate. ARGV: owner, leaseMs, update id.
if redis.call('GET', KEYS[1]) ~= 'p:' .. ARGV[1] then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[2], 'XX', now + tonumber(ARGV[2]), ARGV[3])
return 1
