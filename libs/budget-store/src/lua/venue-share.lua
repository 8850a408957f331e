-- Prepended to reserve.lua, release.lua and rebalance.lua (see LuaScript).
--
-- Every holder of an account holds `share` = min(floor(limit / holders),
-- max(1, floor(pace / 60))) tokens a second, where `pace` =
-- floor(venue_limit * 60 / pool_holders) is its share of its venue's per-IP
-- term in tokens a minute: every account of the venue on the same egress
-- address shares that term (a venue counts requests per source address, so
-- each egress carries the venue's per-IP limit of its own), and the venues
-- count it a minute at a time, so a holder may average under one token a
-- second of it. Those accounts are a pool, named `<venue>@<egress>`. A
-- holder spends at most min(share, pace / 60) a second. No venue limit: the
-- account's term alone, and no pace (-1 in replies, absent from the hash).
-- venue-division.ts computes the same for a rebuild.
--
-- The pool's keys and its other accounts' keys are derived from KEYS[1]
-- (the ready marker, `<prefix>{budget}:ready`): they carry the same hash tag,
-- so they live in the same Redis Cluster slot as every key the script is given.
local budgetBase = string.sub(KEYS[1], 1, #KEYS[1] - #'ready')

local function venueKey(pool) return budgetBase .. 'venue:' .. pool end
local function venueWalletsKey(pool) return budgetBase .. 'venue_wallets:' .. pool end
local function accountKey(venue, wallet) return budgetBase .. 'account:' .. venue .. ':' .. wallet end
local function holdersKey(venue, wallet) return budgetBase .. 'holders:' .. venue .. ':' .. wallet end
local function poolOf(venue, egress) return venue .. '@' .. egress end

-- The pool an account's holders are counted in while it holds anything: the
-- one stored with it, so a plan changed since (the account moved to another
-- egress) never splits its holders over two pools until the sweep moves it
-- whole. An account stored before egresses existed is in its venue's former
-- pool, named by the venue alone; `planned` when the account holds nothing.
local function heldPool(venue, wallet, planned)
  if redis.call('SCARD', holdersKey(venue, wallet)) == 0 then return planned end
  local state = redis.call('HMGET', accountKey(venue, wallet), 'limit', 'pool')
  if not state[1] then return planned end
  return state[2] or venue
end

-- A pool holder's pace: its share of the per-IP term, in tokens a minute (nil: no term).
local function venueShareOf(venueLimit, venueHolders)
  if venueLimit == nil or venueHolders <= 0 then return nil end
  return math.floor(venueLimit * 60 / venueHolders)
end

local function shareOf(limit, holders, venueShare)
  local share = math.floor(limit / holders)
  if venueShare == nil then return share end
  local perSecond = math.max(1, math.floor(venueShare / 60))
  if perSecond < share then return perSecond end
  return share
end

-- The pace as replies carry it: -1 for none.
local function paceOf(venueShare)
  if venueShare == nil then return -1 end
  return venueShare
end

-- Stores an account's pace (tokens a minute of its pool's per-IP term), or none.
local function writePace(key, venueShare)
  if venueShare == nil then
    redis.call('HDEL', key, 'pace')
  else
    redis.call('HSET', key, 'pace', venueShare)
  end
end

-- A pool's stored limit (nil: none) and holder count.
local function readVenue(pool)
  local state = redis.call('HMGET', venueKey(pool), 'limit', 'holders')
  return tonumber(state[1]), math.max(tonumber(state[2] or '0'), 0)
end

-- Stores a pool's limit and holder count; a pool no account holds is deleted.
local function writeVenue(pool, venueLimit, venueHolders)
  if venueHolders <= 0 and redis.call('SCARD', venueWalletsKey(pool)) == 0 then
    redis.call('DEL', venueKey(pool), venueWalletsKey(pool))
    return
  end
  redis.call('HSET', venueKey(pool), 'holders', math.max(venueHolders, 0))
  if venueLimit == nil then
    redis.call('HDEL', venueKey(pool), 'limit')
  else
    redis.call('HSET', venueKey(pool), 'limit', venueLimit)
  end
end

-- Re-divides the pool's accounts other than `skip` (wallet -> true) under a
-- new venue share, each at `version`; appends {'', venue, wallet, before,
-- after, holders, pace} to `out` for every account whose share or pace
-- moved. The cost is one read per account of the pool, whatever the number
-- of holders; the venue's accounts on other egresses are not touched.
local function redivideVenue(pool, venue, venueShare, skip, version, out)
  for _, wallet in ipairs(redis.call('SMEMBERS', venueWalletsKey(pool))) do
    if not skip[wallet] then
      local key = accountKey(venue, wallet)
      local holders = redis.call('SCARD', holdersKey(venue, wallet))
      local state = redis.call('HMGET', key, 'limit', 'share', 'pace')
      if holders > 0 and state[1] then
        local before = tonumber(state[2] or '0')
        local after = shareOf(tonumber(state[1]), holders, venueShare)
        if after ~= before or tonumber(state[3] or '-1') ~= paceOf(venueShare) then
          redis.call('HSET', key, 'share', after, 'seq', version)
          writePace(key, venueShare)
          out[#out + 1] = {'', venue, wallet, before, after, holders, paceOf(venueShare)}
        end
      end
    end
  end
end
