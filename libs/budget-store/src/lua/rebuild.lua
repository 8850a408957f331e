-- Replaces the whole budget state with the holders derived from the live
-- trades in Postgres, then sets the ready marker. Runs only while the marker
-- is missing (fresh or flushed Redis); every other script refuses to run
-- until then, so nothing can interleave with a half-written state.
--
-- KEYS: 1 ready marker, 2 version counter, 3 accounts index, 4 trades index,
--       then `stale` leftover keys to delete, then per account: account hash,
--       holders set, then per pool (venue@egress): venue hash, venue wallets set, then per
--       trade: trade hash (in the plan's order).
-- ARGV: 1 now (ms), 2 plan as JSON, its shares already divided (venue-division.ts):
--       {stale, accounts: [{venue, wallet, pool, limit, min, share, pace (absent: none),
--        holders: [member...]}],
--        venues: [{pool, limit (absent: none), holders, wallets: [wallet...]}],
--        trades: [{id, maker_venue, maker_wallet, hedge_venue, hedge_wallet}]}
-- Returns {'already'} | {'rebuilt', version}
if redis.call('EXISTS', KEYS[1]) == 1 then return {'already'} end
local now = tonumber(ARGV[1])
local plan = cjson.decode(ARGV[2])
local k = 5
for _ = 1, plan.stale do
  redis.call('DEL', KEYS[k])
  k = k + 1
end
redis.call('DEL', KEYS[3], KEYS[4])

-- Versions must keep growing across a flush, or workers would drop the
-- rebuilt shares as stale: restart the counter above anything issued before
-- (fewer than 1000 changes per millisecond since the last rebuild).
local version = math.max(tonumber(redis.call('GET', KEYS[2]) or '0'), now * 1000) + 1
redis.call('SET', KEYS[2], version)

for _, a in ipairs(plan.accounts) do
  local key, holders = KEYS[k], KEYS[k + 1]
  k = k + 2
  redis.call('DEL', key, holders)
  for _, member in ipairs(a.holders) do redis.call('SADD', holders, member) end
  redis.call('HSET', key, 'venue', a.venue, 'wallet', a.wallet, 'limit', a.limit, 'min', a.min,
    'share', a.share, 'seq', version, 'pool', a.pool)
  if a.pace then redis.call('HSET', key, 'pace', a.pace) end
  redis.call('SADD', KEYS[3], a.venue .. ':' .. a.wallet)
end
for _, v in ipairs(plan.venues) do
  local key, wallets = KEYS[k], KEYS[k + 1]
  k = k + 2
  redis.call('DEL', key, wallets)
  redis.call('HSET', key, 'holders', v.holders)
  if v.limit then redis.call('HSET', key, 'limit', v.limit) end
  for _, wallet in ipairs(v.wallets) do redis.call('SADD', wallets, wallet) end
end
for _, t in ipairs(plan.trades) do
  local key = KEYS[k]
  k = k + 1
  redis.call('DEL', key)
  redis.call('HSET', key, 'reserved_at', now, 'joined', version, 'maker_venue', t.maker_venue,
    'maker_wallet', t.maker_wallet, 'hedge_venue', t.hedge_venue, 'hedge_wallet', t.hedge_wallet)
  redis.call('ZADD', KEYS[4], now, t.id)
end
redis.call('HSET', KEYS[1], 'rebuilt_at', now)
return {'rebuilt', version}
