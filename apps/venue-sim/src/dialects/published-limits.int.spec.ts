import { harnessWallet } from '../testing/live-harness';
import { registerApiWallet } from './aster/aster-api-wallets';
import {
  call,
  extendedAccount,
  getFrom,
  lighterAccount,
  publishedAgain,
  sleep,
  startLimitsWorld,
  type LimitsWorld,
} from './published-limits-test-kit';

// The published pools as the dialects enforce them, over HTTP: who shares a
// pool, how its window slides, what the control read-out counts.

let world: LimitsWorld;

beforeAll(async () => {
  world = await startLimitsWorld(62);
});

afterAll(async () => {
  await world.sim.stop();
});

afterEach(async () => {
  await publishedAgain(world);
});

const l2Book = () => call(world, 'hyperliquid/info', { body: { type: 'l2Book', coin: 'SOL' } });

describe('published pools', () => {
  it('an IP pool is shared by every account: Extended’s E1 counts two accounts as one', async () => {
    const [first, second] = [
      await extendedAccount(world, 'shared-a'),
      await extendedAccount(world, 'shared-b'),
    ];
    await world.control.resetDialectRateLimits('extended');
    await world.control.setDialectRateLimits('extended', { pools: { E1: { capacity: 3 } } });
    const balance = (apiKey: string) =>
      call(world, 'extended/api/v1/user/balance', { headers: { 'x-api-key': apiKey } });
    const answers = [];
    for (const apiKey of [first, second, first, second]) {
      answers.push((await balance(apiKey)).status);
    }
    expect(answers).toEqual([200, 200, 200, 429]);
    const [e1] = (await world.control.dialectRateLimits('extended')).pools;
    expect(e1.keys).toEqual([
      {
        key: 'ip:127.0.0.1',
        window_weight: 3,
        max_window_weight: 3,
        admitted_weight: 3,
        refused: 1,
        by_kind: { rest: { admitted_weight: 3, refused: 1 } },
      },
    ]);
  });

  it('an IP pool is each source address’s own: 127.0.0.2 and 127.0.0.3 each get the full allowance', async () => {
    // Extended's E1 weighs every request 1: two a window from each address.
    await world.control.setDialectRateLimits('extended', { pools: { E1: { capacity: 2 } } });
    const markets = (source: string) =>
      getFrom(world, source, 'extended/api/v1/info/markets').then((answer) => answer.status);
    const answers = [];
    for (const source of ['127.0.0.2', '127.0.0.2', '127.0.0.3', '127.0.0.2', '127.0.0.3']) {
      answers.push(await markets(source));
    }
    // The third from 127.0.0.2 is over its pool; 127.0.0.3's second is still inside its own.
    expect(answers).toEqual([200, 200, 200, 429, 200]);
    const [e1] = (await world.control.dialectRateLimits('extended')).pools;
    expect(e1.keys.map((count) => [count.key, count.admitted_weight, count.refused])).toEqual([
      ['ip:127.0.0.2', 2, 1],
      ['ip:127.0.0.3', 2, 0],
    ]);
  });

  it('Aster’s used-weight header is the sender’s own address’s count', async () => {
    const used = async (source: string) =>
      (await getFrom(world, source, 'aster/fapi/v1/ping')).headers['x-mbx-used-weight-1m'];
    expect([await used('127.0.0.2'), await used('127.0.0.2'), await used('127.0.0.3')]).toEqual([
      '1',
      '2',
      '1',
    ]);
  });

  it('an account pool is each account’s own: Lighter’s L1 counts each account’s reads apart', async () => {
    const [first, second] = [
      await lighterAccount(world, 'own-a'),
      await lighterAccount(world, 'own-b'),
    ];
    // `account` weighs 300 of the L1 of the account it reads.
    await world.control.setDialectRateLimits('lighter', { pools: { L1: { capacity: 300 } } });
    const account = (index: number) =>
      call(world, `lighter/api/v1/account?by=index&value=${index}`);
    const answers = [];
    for (const index of [first, second, first]) {
      answers.push((await account(index)).status);
    }
    expect(answers).toEqual([200, 200, 429]);
    const [l1] = (await world.control.dialectRateLimits('lighter')).pools;
    expect(l1.keys.map((count) => [count.key, count.admitted_weight, count.refused])).toEqual([
      [expect.stringMatching(/^0x/), 300, 1],
      [expect.stringMatching(/^0x/), 300, 0],
    ]);
    expect(l1.keys[0].key).not.toBe(l1.keys[1].key);
  });

  it('the window slides: the oldest admission frees its weight a window after it, not at a round time', async () => {
    // Two l2Book reads (2 each) a second.
    await world.control.setDialectRateLimits('hyperliquid', {
      pools: { H1: { capacity: 4, windowMs: 1_000 } },
    });
    expect((await l2Book()).status).toBe(200);
    const firstDone = Date.now();
    await sleep(500);
    expect((await l2Book()).status).toBe(200);
    expect((await l2Book()).status).toBe(429);
    // Past the first admission's window, before the second's: room for one.
    await sleep(firstDone + 1_050 - Date.now());
    expect((await l2Book()).status).toBe(200);
    expect((await l2Book()).status).toBe(429);
    const [h1] = (await world.control.dialectRateLimits('hyperliquid')).pools;
    expect(h1.keys[0]).toMatchObject({
      key: 'ip:127.0.0.1',
      admitted_weight: 6,
      max_window_weight: 4,
      refused: 2,
      by_kind: { l2Book: { admitted_weight: 6, refused: 2 } },
    });
  });

  it('reads out what each kind of request spent, a catch-all read by its own name', async () => {
    await world.control.resetDialectRateLimits('hyperliquid');
    await l2Book();
    await call(world, 'hyperliquid/info', { body: { type: 'userRateLimit', user: '0x0' } });
    await call(world, 'hyperliquid/info', { body: { type: 'spotMeta' } });
    const [h1] = (await world.control.dialectRateLimits('hyperliquid')).pools;
    expect(h1.keys[0]!.by_kind).toEqual({
      'info:spotMeta': { admitted_weight: 20, refused: 0 },
      'info:userRateLimit': { admitted_weight: 20, refused: 0 },
      l2Book: { admitted_weight: 2, refused: 0 },
    });
  });

  it('an action weighs 1 + floor(batch / 40) at the door, whatever the venue makes of it', async () => {
    const action = (orders: number) => ({
      action: { type: 'order', orders: Array.from({ length: orders }, () => ({})), grouping: 'na' },
      nonce: Date.now(),
    });
    await call(world, 'hyperliquid/exchange', { body: action(1) });
    await call(world, 'hyperliquid/exchange', { body: action(40) });
    await call(world, 'hyperliquid/exchange', { body: action(80) });
    const [h1] = (await world.control.dialectRateLimits('hyperliquid')).pools;
    expect(h1.keys).toEqual([
      expect.objectContaining({ key: 'ip:127.0.0.1', admitted_weight: 1 + 2 + 3 }),
    ]);
  });

  it('an API wallet’s registration weighs 50 of Aster’s A1, as its page says', async () => {
    const main = harnessWallet('limits:agent-weight');
    const agent = harnessWallet('limits:agent-weight:api-wallet');
    const approval = await registerApiWallet(
      `${world.sim.url}/dialects/aster`,
      main.privateKey,
      agent.privateKey,
    );
    expect(approval.status).toBe(200);
    const [a1] = (await world.control.dialectRateLimits('aster')).pools;
    expect(a1.keys).toEqual([
      expect.objectContaining({ key: 'ip:127.0.0.1', admitted_weight: 50 }),
    ]);
  });
});

describe('the control read-out', () => {
  it('reports each pool as published and in force, with its weights and counts; reset clears the counts', async () => {
    const adjusted = await world.control.setDialectRateLimits('hyperliquid', { scale: 0.5 });
    expect(adjusted.pools[0]).toMatchObject({
      id: 'H1',
      scope: 'ip',
      window_ms: 60_000,
      capacity: 600,
      published: { window_ms: 60_000, capacity: 1200 },
      weights: expect.objectContaining({ l2Book: 2, userRole: 60, info: 20 }),
    });
    expect(adjusted.pools[0].weights['exchange']).toBe('1 + floor(batch / 40)');
    await l2Book();
    await l2Book();
    const counted = await world.control.dialectRateLimits('hyperliquid');
    expect(counted.pools[0].keys).toContainEqual({
      key: 'ip:127.0.0.1',
      window_weight: 4,
      max_window_weight: 4,
      admitted_weight: 4,
      refused: 0,
      by_kind: { l2Book: { admitted_weight: 4, refused: 0 } },
    });
    const cleared = await world.control.resetDialectRateLimits('hyperliquid');
    expect(cleared.pools[0]).toMatchObject({ capacity: 600, keys: [] });
  });

  it('refuses an unknown pool or number (400) and a venue without a dialect (404)', async () => {
    const put = (venue: string, body: unknown) =>
      fetch(`${world.sim.url}/control/dialects/${venue}/rate-limits`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((response) => response.status);
    expect(await put('hyperliquid', { pools: { H9: { capacity: 1 } } })).toBe(400);
    expect(await put('hyperliquid', { scale: 0 })).toBe(400);
    expect(await put('paradex', { pools: { P1: { window_ms: -1 } } })).toBe(400);
    expect(await put('nowhere', {})).toBe(404);
    // Nothing changed by the refused ones.
    const report = await world.control.dialectRateLimits('paradex');
    expect(report.pools.find((pool) => pool.id === 'P1')).toMatchObject({
      window_ms: 60_000,
      capacity: 1500,
    });
  });
});
