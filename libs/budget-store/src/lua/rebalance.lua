-- Re-divides every account of one venue by the venue registry's terms now
-- (its limit, minimum and per-IP limit changed, or a share drifted from the
-- rule), and recounts the venue's holders from its accounts' holder sets.
-- The sweep runs it per venue: one read per account, whatever the holders.
--
-- KEYS: 1 ready marker, 2 version counter.
-- ARGV: 1 venue, 2 limit, 3 min, 4 venue limit ('' for none), then the venue's
--       wallets as the accounts index lists them (joined with the venue's own set).
-- Returns {'not_ready'} | {'unchanged'}
--       | {'rebalanced', version, {'', venue, wallet, before, after, holders}...}
if redis.call('EXISTS', KEYS[1]) == 0 then return {'not_ready'} end
local venue, limit, min = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local venueLimit = tonumber(ARGV[4])

local wallets, seen = {}, {}
local function consider(wallet)
  if not seen[wallet] then
    seen[wallet] = true
    wallets[#wallets + 1] = wallet
  end
end
for _, wallet in ipairs(redis.call('SMEMBERS', venueWalletsKey(venue))) do consider(wallet) end
for i = 5, #ARGV do consider(ARGV[i]) end

local accounts, total = {}, 0
for _, wallet in ipairs(wallets) do
  local holders = redis.call('SCARD', holdersKey(venue, wallet))
  local state = redis.call('HMGET', accountKey(venue, wallet), 'limit', 'min', 'share')
  if holders == 0 or not state[1] then
    redis.call('SREM', venueWalletsKey(venue), wallet)
  else
    redis.call('SADD', venueWalletsKey(venue), wallet)
    total = total + holders
    accounts[#accounts + 1] = {
      wallet = wallet, holders = holders,
      limit = tonumber(state[1]), min = tonumber(state[2]), share = tonumber(state[3] or '0'),
    }
  end
end
writeVenue(venue, venueLimit, total)

local venueShare = venueShareOf(venueLimit, total)
local version = nil
local out = {'rebalanced', 0}
for _, a in ipairs(accounts) do
  local after = shareOf(limit, a.holders, venueShare)
  if after ~= a.share or a.limit ~= limit or a.min ~= min then
    version = version or redis.call('INCR', KEYS[2])
    redis.call('HSET', accountKey(venue, a.wallet), 'limit', limit, 'min', min, 'share', after, 'seq', version)
    out[#out + 1] = {'', venue, a.wallet, a.share, after, a.holders}
  end
end
if version == nil then return {'unchanged'} end
out[2] = version
return out
