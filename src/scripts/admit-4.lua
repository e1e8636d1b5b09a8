-- What the core needs before it dispatches an update, in one round trip (bot/kernel/admission.ts):
-- takes the user's rate token (as takeToken-1.lua), reads the reply language, drops the open
-- question when the update is a command (only when allowed, as dispatch would), and says whether
-- the chat has a welcome-back record. Its keys carry no common hash tag: it runs on a single Redis
-- only; on a Redis Cluster the core takes these steps one by one.
-- KEYS: rate bucket, language, open question, welcome-back record.
-- ARGV: capacity, tokens per ms, now (ms), '1' drop the question, '1' check the record.
-- Returns {allowed 0|1, wait ms, language or false, record 0|1}.
--- @include "takeToken"
local allowed, wait = take_token(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]))
local language = redis.call('GET', KEYS[2])
if allowed == 1 and ARGV[4] == '1' then redis.call('DEL', KEYS[3]) end
local away = 0
if ARGV[5] == '1' then away = redis.call('EXISTS', KEYS[4]) end
return {allowed, wait, language, away}
