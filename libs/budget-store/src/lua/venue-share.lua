-- Prepended to reserve.lua, release.lua and rebalance.lua (see LuaScript).
--
-- Every holder of an account holds min(floor(limit / holders),
-- floor(venue_limit / venue_holders)): its account's term, capped by its
-- venue's per-IP term, which every account of the venue shares (the fleet
-- trades from one egress IP). No venue limit: the account's term alone.
-- venue-division.ts computes the same for a rebuild.
--
-- The venue's keys and its other accounts' keys are derived from KEYS[1]
-- (the ready marker, `<prefix>{budget}:ready`): they carry the same hash tag,
-- so they live in the same Redis Cluster slot as every key the script is given.
local budgetBase = string.sub(KEYS[1], 1, #KEYS[1] - #'ready')

local function venueKey(venue) return budgetBase .. 'venue:' .. venue end
local function venueWalletsKey(venue) return budgetBase .. 'venue_wallets:' .. venue end
local function accountKey(venue, wallet) return budgetBase .. 'account:' .. venue .. ':' .. wallet end
local function holdersKey(venue, wallet) return budgetBase .. 'holders:' .. venue .. ':' .. wallet end

-- nil when the venue has no per-IP limit or nobody holds it.
local function venueShareOf(venueLimit, venueHolders)
  if venueLimit == nil or venueHolders <= 0 then return nil end
  return math.floor(venueLimit / venueHolders)
end

local function shareOf(limit, holders, venueShare)
  local share = math.floor(limit / holders)
  if venueShare ~= nil and venueShare < share then return venueShare end
  return share
end

-- A venue's stored limit (nil: none) and holder count.
local function readVenue(venue)
  local state = redis.call('HMGET', venueKey(venue), 'limit', 'holders')
  return tonumber(state[1]), math.max(tonumber(state[2] or '0'), 0)
end

-- Stores a venue's limit and holder count; a venue no account holds is deleted.
local function writeVenue(venue, venueLimit, venueHolders)
  if venueHolders <= 0 and redis.call('SCARD', venueWalletsKey(venue)) == 0 then
    redis.call('DEL', venueKey(venue), venueWalletsKey(venue))
    return
  end
  redis.call('HSET', venueKey(venue), 'holders', math.max(venueHolders, 0))
  if venueLimit == nil then
    redis.call('HDEL', venueKey(venue), 'limit')
  else
    redis.call('HSET', venueKey(venue), 'limit', venueLimit)
  end
end

-- Re-divides the venue's accounts other than `skip` (wallet -> true) under a
-- new venue share, each at `version`; appends {'', venue, wallet, before,
-- after, holders} to `out` for every account whose share moved. The cost is
-- one read per account of the venue, whatever the number of holders.
local function redivideVenue(venue, venueShare, skip, version, out)
  for _, wallet in ipairs(redis.call('SMEMBERS', venueWalletsKey(venue))) do
    if not skip[wallet] then
      local key = accountKey(venue, wallet)
      local holders = redis.call('SCARD', holdersKey(venue, wallet))
      local state = redis.call('HMGET', key, 'limit', 'share')
      if holders > 0 and state[1] then
        local before = tonumber(state[2] or '0')
        local after = shareOf(tonumber(state[1]), holders, venueShare)
        if after ~= before then
          redis.call('HSET', key, 'share', after, 'seq', version)
          out[#out + 1] = {'', venue, wallet, before, after, holders}
        end
      end
    end
  end
end
