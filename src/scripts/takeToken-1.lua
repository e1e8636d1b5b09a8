-- A user's command rate (bot/kernel/rate-limit.ts). KEYS: the bucket hash.
-- ARGV: capacity, tokens per ms, now (ms). Returns {allowed 0|1, wait ms}.
--- @include "takeToken"
local allowed, wait = take_token(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]))
return {allowed, wait}
