-- One worker's report on an account's cumulative request budget, answered
-- with the account's budget as kept (cumulative-quotas.ts).
-- KEYS[1] the account's cumulative hash, KEYS[2] its holders set.
-- ARGV: has_reading (0|1), left, read_at_ms, spent, ttl_ms.
-- A reading newer than the kept one replaces it and clears what was spent
-- since the older one; spends add to what is kept (a spend reported with or
-- after a newer reading may predate it: counted twice, never missed).
if ARGV[1] == '1' then
  local at = redis.call('HGET', KEYS[1], 'read_at')
  if not at or tonumber(at) < tonumber(ARGV[3]) then
    redis.call('HSET', KEYS[1], 'left', ARGV[2], 'read_at', ARGV[3], 'spent', 0)
  end
end
if redis.call('EXISTS', KEYS[1]) == 0 then
  return false
end
if tonumber(ARGV[4]) > 0 then
  redis.call('HINCRBY', KEYS[1], 'spent', ARGV[4])
end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
local hedging = 0
for _, member in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  if string.sub(member, -6) == '|hedge' then
    hedging = hedging + 1
  end
end
local kept = redis.call('HMGET', KEYS[1], 'left', 'read_at', 'spent')
return { kept[1], kept[2], kept[3], hedging }
