-- Re-divides every account of one venue by the venue registry's terms now
-- (its limit, minimum and per-IP limit changed, or a share drifted from the
-- rule), moves each account to the pool of its egress under the plan now
-- (the plan changed between boots), and recounts every pool's holders from
-- its accounts' holder sets. The sweep runs it per venue: one read per
-- account, whatever the holders.
--
-- KEYS: 1 ready marker, 2 version counter.
-- ARGV: 1 venue, 2 limit, 3 min, 4 venue limit ('' for none), 5 n, then the
--       plan's n egress ids, then (wallet, egress by the plan) for each of the
--       venue's wallets the accounts index lists.
-- Returns {'not_ready'} | {'unchanged'}
--       | {'rebalanced', version, {'', venue, wallet, before, after, holders, pace}...}
if redis.call('EXISTS', KEYS[1]) == 0 then return {'not_ready'} end
local venue, limit, min = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local venueLimit = tonumber(ARGV[4])
local egresses = tonumber(ARGV[5])

-- Every pool that may hold an account of the venue: the plan's, the former
-- one (named by the venue alone) and any an account is stored in.
local pools, poolOrder = {}, {}
local function touch(pool)
  if not pools[pool] then
    pools[pool] = 0
    poolOrder[#poolOrder + 1] = pool
  end
end
local wallets, planned = {}, {}
local function consider(wallet)
  if planned[wallet] == nil then
    planned[wallet] = false
    wallets[#wallets + 1] = wallet
  end
end
for i = 6, 5 + egresses do touch(poolOf(venue, ARGV[i])) end
touch(venue)
for i = 6 + egresses, #ARGV, 2 do
  consider(ARGV[i])
  planned[ARGV[i]] = poolOf(venue, ARGV[i + 1])
end
-- A wallet the index did not list when the sweep read it joined since, by the plan now.
for _, pool in ipairs(poolOrder) do
  for _, wallet in ipairs(redis.call('SMEMBERS', venueWalletsKey(pool))) do consider(wallet) end
end

local accounts = {}
for _, wallet in ipairs(wallets) do
  local holders = redis.call('SCARD', holdersKey(venue, wallet))
  local state = redis.call('HMGET', accountKey(venue, wallet), 'limit', 'min', 'share', 'pool', 'pace')
  local stored = state[4] or venue
  touch(stored)
  redis.call('SREM', venueWalletsKey(stored), wallet)
  if holders > 0 and state[1] then
    local pool = planned[wallet] or stored
    touch(pool)
    redis.call('SADD', venueWalletsKey(pool), wallet)
    if pool ~= state[4] then redis.call('HSET', accountKey(venue, wallet), 'pool', pool) end
    pools[pool] = pools[pool] + holders
    accounts[#accounts + 1] = {
      wallet = wallet, holders = holders, pool = pool,
      limit = tonumber(state[1]), min = tonumber(state[2]), share = tonumber(state[3] or '0'),
      pace = tonumber(state[5] or '-1'),
    }
  end
end
for _, pool in ipairs(poolOrder) do writeVenue(pool, venueLimit, pools[pool]) end

local version = nil
local out = {'rebalanced', 0}
for _, a in ipairs(accounts) do
  local venueShare = venueShareOf(venueLimit, pools[a.pool])
  local after = shareOf(limit, a.holders, venueShare)
  if after ~= a.share or a.limit ~= limit or a.min ~= min or a.pace ~= paceOf(venueShare) then
    version = version or redis.call('INCR', KEYS[2])
    redis.call('HSET', accountKey(venue, a.wallet), 'limit', limit, 'min', min, 'share', after, 'seq', version)
    writePace(accountKey(venue, a.wallet), venueShare)
    out[#out + 1] = {'', venue, a.wallet, a.share, after, a.holders, paceOf(venueShare)}
  end
end
if version == nil then return {'unchanged'} end
out[2] = version
return out
