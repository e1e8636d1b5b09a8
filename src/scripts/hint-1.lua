-- Something says this swap changed: marks the hint, only on a swap someone follows (a hint about
-- any other swap must not create a hash that never expires). KEYS[1] swap hash.
-- ARGV[1]: '1' ask the service (a webhook, a new chain sighting), or 'c' redraw the cards from
-- what is stored (the chain's confirmations, what the creator said). Two different hints before a
-- run make '2': ask, and redraw whatever the answer. Returns the number of followers.
local n = tonumber(redis.call('HGET', KEYS[1], 'n') or '0')
if n > 0 then
  local cur = redis.call('HGET', KEYS[1], 'h')
  local new = ARGV[1]
  if cur and cur ~= new then new = '2' end
  redis.call('HSET', KEYS[1], 'h', new)
end
return n
