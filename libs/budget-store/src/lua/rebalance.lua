-- Re-divides one account after its limit or minimum changed in the venue registry.
--
-- KEYS: 1 ready marker, 2 version counter, 3 account hash, 4 holders set.
-- ARGV: 1 limit, 2 min.
-- Returns {'not_ready'} | {'unchanged'}
--       | {'rebalanced', version, {'', venue, wallet, before, after, holders}}
if redis.call('EXISTS', KEYS[1]) == 0 then return {'not_ready'} end
local holders = redis.call('SCARD', KEYS[4])
if holders == 0 then return {'unchanged'} end
local limit, min = tonumber(ARGV[1]), tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[3], 'limit', 'min', 'share', 'venue', 'wallet')
if tonumber(state[1]) == limit and tonumber(state[2]) == min then return {'unchanged'} end
local after = math.floor(limit / holders)
local version = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[3], 'limit', limit, 'min', min, 'share', after, 'seq', version)
return {'rebalanced', version,
  {'', state[4], state[5], tonumber(state[3] or '0'), after, holders}}
