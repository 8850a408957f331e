-- Releases a trade's shares: its holders leave their accounts and the others'
-- shares grow to min(floor(limit / remaining), floor(venue_limit /
-- venue_remaining)) (venue-share.lua); when the venue's share moves, its other
-- accounts are re-divided in the same script. An emptied account is deleted.
--
-- KEYS: 1 ready marker, 2 version counter, 3 accounts index, 4 trades index,
--       5 trade hash, then per account: account hash, holders set.
-- ARGV: 1 trade id, then per account: role, venue, wallet, as read from the trade hash.
-- Returns {'not_ready'} | {'not_found'} | {'retry'} (the trade hash changed since it was read)
--       | {'released', version, {role, venue, wallet, before, after, holders}...}
-- (entries with role '' are the venue's other accounts)
local tradeId = ARGV[1]
if redis.call('EXISTS', KEYS[1]) == 0 then return {'not_ready'} end
if redis.call('EXISTS', KEYS[5]) == 0 then return {'not_found'} end

local accounts = {}
for i = 1, (#KEYS - 5) / 2 do
  local arg = 1 + (i - 1) * 3
  accounts[i] = {
    key = KEYS[4 + i * 2], holders = KEYS[5 + i * 2],
    role = ARGV[arg + 1], venue = ARGV[arg + 2], wallet = ARGV[arg + 3],
  }
end
local held = redis.call('HMGET', KEYS[5], 'maker_venue', 'maker_wallet', 'hedge_venue', 'hedge_wallet')
local heldCount = held[3] == '' and 1 or 2
if heldCount ~= #accounts then return {'retry'} end
for _, a in ipairs(accounts) do
  local offset = a.role == 'maker' and 0 or 2
  if held[offset + 1] ~= a.venue or held[offset + 2] ~= a.wallet then return {'retry'} end
end

-- Each venue the trade leaves: its limit, holders before and after.
local venues, venueOrder = {}, {}
for _, a in ipairs(accounts) do
  local v = venues[a.venue]
  if not v then
    local limit, holders = readVenue(a.venue)
    v = { limit = limit, before = holders, after = holders, own = {} }
    venues[a.venue] = v
    venueOrder[#venueOrder + 1] = a.venue
  end
  v.after = math.max(v.after - 1, 0)
  v.own[a.wallet] = true
end

local version = redis.call('INCR', KEYS[2])
local out = {'released', version}
for _, a in ipairs(accounts) do
  redis.call('SREM', a.holders, tradeId .. '|' .. a.role)
  local remaining = redis.call('SCARD', a.holders)
  local state = redis.call('HMGET', a.key, 'limit', 'share')
  local before = tonumber(state[2] or '0')
  local after = 0
  if remaining == 0 then
    redis.call('DEL', a.key, a.holders)
    redis.call('SREM', KEYS[3], a.venue .. ':' .. a.wallet)
    redis.call('SREM', venueWalletsKey(a.venue), a.wallet)
  else
    local v = venues[a.venue]
    after = shareOf(tonumber(state[1]), remaining, venueShareOf(v.limit, v.after))
    redis.call('HSET', a.key, 'share', after, 'seq', version)
  end
  out[#out + 1] = {a.role, a.venue, a.wallet, before, after, remaining}
end
for _, venue in ipairs(venueOrder) do
  local v = venues[venue]
  local shareBefore, shareAfter = venueShareOf(v.limit, v.before), venueShareOf(v.limit, v.after)
  if shareBefore ~= shareAfter then redivideVenue(venue, shareAfter, v.own, version, out) end
  writeVenue(venue, v.limit, v.after)
end
redis.call('DEL', KEYS[5])
redis.call('ZREM', KEYS[4], tradeId)
return out
