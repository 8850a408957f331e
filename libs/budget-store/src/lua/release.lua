-- Releases a trade's shares: its holders leave their accounts and the others'
-- shares and paces grow by the rule of venue-share.lua, in the pool each
-- account is stored in;
-- when the pool's share moves, its other accounts are re-divided in the same
-- script. An emptied account is deleted.
--
-- KEYS: 1 ready marker, 2 version counter, 3 accounts index, 4 trades index,
--       5 trade hash, then per account: account hash, holders set.
-- ARGV: 1 trade id, then per account: role, venue, wallet, as read from the trade hash.
-- Returns {'not_ready'} | {'not_found'} | {'retry'} (the trade hash changed since it was read)
--       | {'released', version, {role, venue, wallet, before, after, holders, pace}...}
-- (entries with role '' are the pool's other accounts)
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
  accounts[i].pool = heldPool(accounts[i].venue, accounts[i].wallet, accounts[i].venue)
end
local held = redis.call('HMGET', KEYS[5], 'maker_venue', 'maker_wallet', 'hedge_venue', 'hedge_wallet')
local heldCount = held[3] == '' and 1 or 2
if heldCount ~= #accounts then return {'retry'} end
for _, a in ipairs(accounts) do
  local offset = a.role == 'maker' and 0 or 2
  if held[offset + 1] ~= a.venue or held[offset + 2] ~= a.wallet then return {'retry'} end
end

-- Each pool the trade leaves: its limit, holders before and after.
local venues, venueOrder = {}, {}
for _, a in ipairs(accounts) do
  local v = venues[a.pool]
  if not v then
    local limit, holders = readVenue(a.pool)
    v = { venue = a.venue, limit = limit, before = holders, after = holders, own = {} }
    venues[a.pool] = v
    venueOrder[#venueOrder + 1] = a.pool
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
  local after, pace = 0, -1
  if remaining == 0 then
    redis.call('DEL', a.key, a.holders)
    redis.call('SREM', KEYS[3], a.venue .. ':' .. a.wallet)
    redis.call('SREM', venueWalletsKey(a.pool), a.wallet)
  else
    local v = venues[a.pool]
    local venueShare = venueShareOf(v.limit, v.after)
    after, pace = shareOf(tonumber(state[1]), remaining, venueShare), paceOf(venueShare)
    redis.call('HSET', a.key, 'share', after, 'seq', version)
    writePace(a.key, venueShare)
  end
  out[#out + 1] = {a.role, a.venue, a.wallet, before, after, remaining, pace}
end
for _, pool in ipairs(venueOrder) do
  local v = venues[pool]
  local shareBefore, shareAfter = venueShareOf(v.limit, v.before), venueShareOf(v.limit, v.after)
  if shareBefore ~= shareAfter then redivideVenue(pool, v.venue, shareAfter, v.own, version, out) end
  writeVenue(pool, v.limit, v.after)
end
redis.call('DEL', KEYS[5])
redis.call('ZREM', KEYS[4], tradeId)
return out
