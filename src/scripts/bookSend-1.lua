-- Books a send slot in a platform's rate (tracking/pacing.ts): GCRA, the token bucket kept as
-- one time, shared by every worker. KEYS[1] the time (ms) the rate's next slot frees, unbursted.
-- ARGV: now, interval ms (window / limit), burst (slots that may go at once), horizon ms (how far
-- ahead a slot may be booked). Returns the wait before sending (>= 0, booked), or minus the
-- wait before asking again (< 0, nothing booked: the rate is booked beyond the horizon).
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local horizon = tonumber(ARGV[4])
local tat = math.max(tonumber(redis.call('GET', KEYS[1]) or '0'), now)
local at = tat - (burst - 1) * interval
if at - now > horizon then return -math.max(1, math.ceil(at - now - horizon)) end
tat = tat + interval
redis.call('SET', KEYS[1], string.format('%.17g', tat), 'PX', math.ceil(tat - now) + 1000)
return math.max(0, math.ceil(at - now))
