import {
  CcxtVenueClient,
  RateLimitedError,
  VenueSetupError,
  createCcxtExchange,
} from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { liveTestOptions } from '../../testing/live-harness';
import { SimControl } from '../../testing/sim-control';
import { LighterKit, type Owner } from './lighter-test-kit';

// Lighter's volume quota (lighter-volume-quota.ts): a free transaction every
// 15 s, the quota spent by the others and told in their answers, the venue's
// refusal once it is gone (cancels still pass), volume earning it back; and
// the tier in `accountLimits` (lighter-account-tiers.ts).

let sim: RunningVenueSim;
let control: SimControl;
const kit = new LighterKit(
  () => sim.url,
  () => control,
);

beforeAll(async () => {
  sim = await startVenueSim({ seed: 21, tickMs: 0 });
  control = new SimControl(sim.url);
});

afterAll(async () => {
  await sim.stop();
});

const post = async (path: string, body: unknown) => {
  const response = await fetch(`${kit.endpoint()}/_sim/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return response.status;
};

const quotaOf = async (owner: Owner) => {
  const response = await fetch(`${kit.endpoint()}/_sim/volume-quota?l1_address=${owner.wallet}`);
  return ((await response.json()) as { remaining: number }).remaining;
};

/** A post-only buy of ETH well under the book (it rests), client index `client`. */
const resting = (owner: Owner, client: number) =>
  kit.order(owner, { nonce: Date.now() + client, client, price: 100_000 });

const accountLimits = async (owner: Owner) => {
  const token = kit.signer()['CreateAuthToken']!(
    Math.floor(Date.now() / 1000) + 600,
    owner.apiKeyIndex,
    owner.index,
  )['authToken'] as string;
  const response = await fetch(
    `${kit.endpoint()}/api/v1/accountLimits?account_index=${owner.index}`,
    { headers: { authorization: token } },
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('Lighter dialect: the volume quota', () => {
  it('one free transaction, then each spends one and its answer says what is left', async () => {
    const owner = await kit.owner('quota-told');
    const first = await kit.sendTx(resting(owner, 1));
    expect(first.status).toBe(200);
    expect(first.body['message']).toBe('{"ratelimit": "didn\'t use volume quota"}');
    expect(first.body['volume_quota_remaining']).toBeUndefined();
    const second = await kit.sendTx(resting(owner, 2));
    expect(second.body).toMatchObject({
      code: 200,
      volume_quota_remaining: 999,
      message: '{"ratelimit": "999 volume quota remaining."}',
    });
    expect(await quotaOf(owner)).toBe(999);
  });

  it('spent: refused with 23000 at the API, nothing placed, no nonce used; a cancel still passes', async () => {
    const owner = await kit.owner('quota-spent');
    expect(await post('volume-quota', { l1_address: owner.wallet, initial: 0 })).toBe(200);
    expect((await kit.sendTx(resting(owner, 1))).status).toBe(200); // the free one
    const nonce = await kit.nextNonce(owner);
    const refused = await kit.sendTx(
      kit.order(owner, { nonce, client: 2, price: 100_000, skipNonce: 0 }),
    );
    expect(refused).toEqual({
      status: 429,
      body: { code: 23000, message: 'Too Many Requests!:  Not enough volume quota' },
    });
    expect(await kit.nextNonce(owner)).toBe(nonce);
    const open = (await control.accountOrders('lighter', owner.wallet, { status: 'open' })).orders;
    expect(open).toHaveLength(1);
    // Cancels spend no quota (the page: "Cancels do not consume quota").
    const cancel = await kit.sendTx(kit.cancel(owner, 1, nonce, 0));
    expect(cancel.status).toBe(200);
    expect(cancel.body['volume_quota_remaining']).toBeUndefined();
    const after = (await control.accountOrders('lighter', owner.wallet, { status: 'open' })).orders;
    expect(after).toEqual([]);
  });

  it('volume traded earns quota back: one per usdc_per_quota', async () => {
    const owner = await kit.owner('quota-earned');
    expect(
      await post('volume-quota', { l1_address: owner.wallet, initial: 0, usdc_per_quota: 10 }),
    ).toBe(200);
    expect(await quotaOf(owner)).toBe(0);
    // An IOC buy of 0.01 ETH at the ask: about 20 USDC traded at the simulated ETH price.
    const ioc = kit.order(owner, {
      nonce: Date.now(),
      client: 3,
      baseAmount: 100,
      price: await kit.best('asks'),
      timeInForce: 0,
    });
    expect((await kit.sendTx(ioc)).status).toBe(200);
    const traded = (await control.accountFills('lighter', owner.wallet)).fills.reduce(
      (total, fill) => total + Number(fill.price) * Number(fill.size),
      0,
    );
    expect(traded).toBeGreaterThan(10);
    expect(await quotaOf(owner)).toBe(Math.floor(traded / 10));
    await post('volume-quota', { usdc_per_quota: 10 });
  });

  it('the live client: a spent quota is RateLimitedError with the free pace, 15 s', async () => {
    const owner = await kit.owner('quota-live');
    expect(await post('volume-quota', { l1_address: owner.wallet, initial: 0 })).toBe(200);
    const exchange = await createCcxtExchange('lighter', owner.credentials, {
      endpoint: kit.endpoint(),
      ...liveTestOptions('lighter'),
    });
    const client = new CcxtVenueClient({ venue: 'lighter', exchange });
    await client.connect();
    const place = (n: number) =>
      client.placePostOnly({
        symbol: 'ETH',
        side: 'buy',
        price: '1000',
        size: '0.01',
        clientOrderId: `${'ce'.repeat(15)}0${n}`,
      });
    try {
      await place(1);
      // The free one tells nothing of the quota.
      expect(await client.cumulativeBudget()).toBeNull();
      const over = place(2);
      await expect(over).rejects.toBeInstanceOf(RateLimitedError);
      await expect(over).rejects.toMatchObject({ retryAfterMs: 15_000 });
      expect(await client.cumulativeBudget()).toMatchObject({ left: 0, spentPaceMs: 15_000 });
    } finally {
      await client.close();
    }
  });
  it('the live client learns what is left from the answers of its transactions', async () => {
    const owner = await kit.owner('quota-learned');
    expect(await post('volume-quota', { l1_address: owner.wallet, initial: 5 })).toBe(200);
    const exchange = await createCcxtExchange('lighter', owner.credentials, {
      endpoint: kit.endpoint(),
      ...liveTestOptions('lighter'),
    });
    const client = new CcxtVenueClient({ venue: 'lighter', exchange });
    await client.connect();
    try {
      for (const n of [1, 2, 3]) {
        await client.placePostOnly({
          symbol: 'ETH',
          side: 'buy',
          price: '1000',
          size: '0.01',
          clientOrderId: `${'cf'.repeat(15)}0${n}`,
        });
      }
      // The first was free; the next two spent one each.
      expect(await client.cumulativeBudget()).toMatchObject({ left: 3 });
      expect(await quotaOf(owner)).toBe(3);
    } finally {
      await client.close();
    }
  });
});

describe('Lighter dialect: the account tier', () => {
  it('accountLimits answers the tier: Premium unless set; a Standard address spends no quota', async () => {
    const owner = await kit.owner('tier');
    expect(await accountLimits(owner)).toMatchObject({
      status: 200,
      body: { code: 200, user_tier: 'premium', user_tier_name: 'Premium' },
    });
    expect(await post('account-tier', { l1_address: owner.wallet, tier: 'standard' })).toBe(200);
    expect(await accountLimits(owner)).toMatchObject({
      status: 200,
      body: { code: 200, user_tier: 'standard', user_tier_name: 'Standard' },
    });
    await kit.sendTx(resting(owner, 1));
    const second = await kit.sendTx(resting(owner, 2));
    expect(second.status).toBe(200);
    expect(second.body['volume_quota_remaining']).toBeUndefined();
    expect(await quotaOf(owner)).toBe(1000);
  });

  it('the live client refuses a Standard account at connect, naming the tier', async () => {
    const liveClient = async (owner: Owner) =>
      new CcxtVenueClient({
        venue: 'lighter',
        exchange: await createCcxtExchange('lighter', owner.credentials, {
          endpoint: kit.endpoint(),
          ...liveTestOptions('lighter'),
        }),
      });
    const standard = await kit.owner('tier-standard-live');
    expect(await post('account-tier', { l1_address: standard.wallet, tier: 'standard' })).toBe(200);
    const refused = await liveClient(standard);
    try {
      const connecting = refused.connect();
      await expect(connecting).rejects.toBeInstanceOf(VenueSetupError);
      await expect(connecting).rejects.toThrow(/Standard tier/);
    } finally {
      await refused.close();
    }
    const premium = await liveClient(await kit.owner('tier-premium-live'));
    try {
      await premium.connect();
    } finally {
      await premium.close();
    }
  });

  it('accountLimits needs the auth token of the account', async () => {
    const owner = await kit.owner('tier-token');
    const response = await fetch(
      `${kit.endpoint()}/api/v1/accountLimits?account_index=${owner.index}`,
    );
    expect(response.status).toBe(401);
  });
});
