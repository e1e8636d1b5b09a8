-- Keeps the creator's deposit card (its message) in the chat's delivery record, so notify jobs edit
-- it as the swap moves on, and makes the chat's status card due now (version 0): the deposit
-- card is in the chat, so the status card lands below it.
-- KEYS[1] swap hash. ARGV: targetKey, message id, chat id of the message ('' = the chat's own),
-- 'm' when the message is a media message (a photo: edited as one) or ''.
-- Returns -1 when the chat does not follow the swap, else the swap's state version (0: not polled yet).
local key = KEYS[1]
if redis.call('HEXISTS', key, 'f:' .. ARGV[1]) == 0 then return -1 end
local r = 'r:' .. ARGV[1]
local raw = redis.call('HGET', key, r)
local d = {v = 0, m = 0}
if raw then d = cjson.decode(raw) end
d.di = ARGV[2]
if ARGV[3] ~= '' then d.dh = ARGV[3] else d.dh = nil end
if ARGV[4] == 'm' then d.dk = 'm' else d.dk = nil end
d.dc = nil
d.v = 0
redis.call('HSET', key, r, cjson.encode(d))
return tonumber(redis.call('HGET', key, 'v') or '0') or 0
