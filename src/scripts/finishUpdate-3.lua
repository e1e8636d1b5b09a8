-- Marks an update done (for a day). KEYS as claimUpdate. ARGV: seconds to remember it, update id.
redis.call('SET', KEYS[1], 'done', 'EX', ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('HDEL', KEYS[3], ARGV[2])
return 1
