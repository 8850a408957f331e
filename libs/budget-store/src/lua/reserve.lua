-- Reserves a trade's shares on its maker account and, when given, its hedge
-- account: all or nothing, in one script so no other reserve or release can
-- interleave. Every holder of an account gets its account's term capped by
-- its pool's per-IP term, and a pace of that term a minute (venue-share.lua);
-- when the pool's share moves, its other accounts are re-divided in the same
-- script.
--
-- KEYS: 1 ready marker, 2 version counter, 3 accounts index (set), 4 trades index (zset),
--       5 trade hash, then per account (maker first): 6/8 account hash, 7/9 holders set.
-- ARGV: 1 trade id, 2 now (ms), 3 force ('1' adopts a live trade: no minimum check),
--       then per account: role, venue, wallet, limit, min, venue limit ('' for none),
--       egress (by the plan; an account already held stays in its stored pool),
--       venue min (the smallest pace, tokens a minute).
-- Returns {'not_ready'} | {'conflict'} | {'refused', role, holders, 'account' | 'venue', pool}
--       | {'existing', {role, share, version, pace}...}
--       | {'granted', version, {role, venue, wallet, before, after, holders, pace}...}
-- (holders: how many hold the account after the change; a refusal for the venue's
-- term counts the pool's holders. Entries with role '' are the pool's other
-- accounts. The reply never lists holders, so a reserve costs the same whatever
-- their number: one read per account of the pool at most.)
local tradeId, now, force = ARGV[1], ARGV[2], ARGV[3] == '1'
if redis.call('EXISTS', KEYS[1]) == 0 then return {'not_ready'} end

local accounts = {}
for i = 1, (#KEYS - 5) / 2 do
  local arg = 3 + (i - 1) * 8
  accounts[i] = {
    key = KEYS[4 + i * 2], holders = KEYS[5 + i * 2],
    role = ARGV[arg + 1], venue = ARGV[arg + 2], wallet = ARGV[arg + 3],
    limit = tonumber(ARGV[arg + 4]), min = tonumber(ARGV[arg + 5]),
    venueLimit = tonumber(ARGV[arg + 6]), venueMin = tonumber(ARGV[arg + 8]),
  }
  accounts[i].pool = heldPool(accounts[i].venue, accounts[i].wallet,
    poolOf(accounts[i].venue, ARGV[arg + 7]))
end
local wanted = { maker = '', hedge = '' }
for _, a in ipairs(accounts) do wanted[a.role] = a.venue .. ':' .. a.wallet end

-- A retried reserve answers the grant already held, never a second holder.
if redis.call('EXISTS', KEYS[5]) == 1 then
  local held = redis.call('HMGET', KEYS[5], 'maker_venue', 'maker_wallet', 'hedge_venue', 'hedge_wallet')
  local heldHedge = held[3] == '' and '' or (held[3] .. ':' .. held[4])
  if held[1] .. ':' .. held[2] ~= wanted.maker or heldHedge ~= wanted.hedge then
    return {'conflict'}
  end
  local out = {'existing'}
  for _, a in ipairs(accounts) do
    local state = redis.call('HMGET', a.key, 'share', 'seq', 'pace')
    out[#out + 1] = {a.role, tonumber(state[1] or '0'), tonumber(state[2] or '0'),
      tonumber(state[3] or '-1')}
  end
  return out
end

-- Each pool the trade joins: its limit now (the registry's), before and after.
local venues, venueOrder = {}, {}
for _, a in ipairs(accounts) do
  local v = venues[a.pool]
  if not v then
    local storedLimit, holders = readVenue(a.pool)
    v = { venue = a.venue, limit = a.venueLimit, storedLimit = storedLimit, before = holders,
      after = holders, own = {} }
    venues[a.pool] = v
    venueOrder[#venueOrder + 1] = a.pool
  end
  v.after = v.after + 1
  v.own[a.wallet] = true
end

for _, a in ipairs(accounts) do
  local v = venues[a.pool]
  a.holdersBefore = redis.call('SCARD', a.holders)
  local venueShare = venueShareOf(v.limit, v.after)
  if not force and math.floor(a.limit / (a.holdersBefore + 1)) < a.min then
    return {'refused', a.role, a.holdersBefore, 'account'}
  end
  if not force and venueShare ~= nil and venueShare < a.venueMin then
    return {'refused', a.role, v.before, 'venue', a.pool}
  end
  a.after = shareOf(a.limit, a.holdersBefore + 1, venueShare)
  a.venueShare = venueShare
end

local version = redis.call('INCR', KEYS[2])
local out = {'granted', version}
for _, a in ipairs(accounts) do
  local before = tonumber(redis.call('HGET', a.key, 'share') or '0')
  redis.call('SADD', a.holders, tradeId .. '|' .. a.role)
  redis.call('HSET', a.key, 'venue', a.venue, 'wallet', a.wallet, 'limit', a.limit,
    'min', a.min, 'share', a.after, 'seq', version, 'pool', a.pool)
  writePace(a.key, a.venueShare)
  redis.call('SADD', KEYS[3], a.venue .. ':' .. a.wallet)
  redis.call('SADD', venueWalletsKey(a.pool), a.wallet)
  out[#out + 1] = {a.role, a.venue, a.wallet, before, a.after, redis.call('SCARD', a.holders),
    paceOf(a.venueShare)}
end
for _, pool in ipairs(venueOrder) do
  local v = venues[pool]
  writeVenue(pool, v.limit, v.after)
  local shareBefore, shareAfter = venueShareOf(v.storedLimit, v.before), venueShareOf(v.limit, v.after)
  if shareBefore ~= shareAfter then redivideVenue(pool, v.venue, shareAfter, v.own, version, out) end
end
local hedge = accounts[2]
-- 'joined' orders the holders of an account read (readAccount): oldest first.
redis.call('HSET', KEYS[5], 'reserved_at', now, 'joined', version,
  'maker_venue', accounts[1].venue, 'maker_wallet', accounts[1].wallet,
  'hedge_venue', hedge and hedge.venue or '', 'hedge_wallet', hedge and hedge.wallet or '')
redis.call('ZADD', KEYS[4], now, tradeId)
return out
