-- Stores what the chain watcher saw for a swap (fields c: the sighting, ca: the sighting last
-- put on the card), only while the swap's hash exists. KEYS[1] swap hash. ARGV: field, value.
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
