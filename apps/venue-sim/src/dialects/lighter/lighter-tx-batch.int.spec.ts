import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { SimControl } from '../../testing/sim-control';
import { LighterKit, type Owner, type Signed } from './lighter-test-kit';

// `POST /api/v1/sendTxBatch` (lighter-tx-batch.ts): up to 50 transactions of
// one API key, each executed as `sendTx` would execute it alone (nonces in
// sequence, the volume quota per transaction), one request of L2; ccxt 4.5.84's
// lighter class sends no batch (`createOrders: false`), so the spec signs with
// the stand-in signer the dialect's specs share (lighter-test-kit.ts).

let sim: RunningVenueSim;
let control: SimControl;
const kit = new LighterKit(
  () => sim.url,
  () => control,
);

beforeAll(async () => {
  sim = await startVenueSim({ seed: 23, tickMs: 0 });
  control = new SimControl(sim.url);
});

afterAll(async () => {
  await sim.stop();
});

afterEach(() =>
  control.setDialectProfile('lighter', {
    tx_batch_refusal: 'whole',
    tx_batch_l2: 'per_request',
    skip_nonce_order: 'increasing',
  }),
);

/** Sends a batch as lighter-python's `send_tx_batch` does: two JSON arrays in a form. */
async function sendBatch(signed: Array<Signed | { txType: number; txInfo: unknown }>) {
  const form = new FormData();
  form.set('tx_types', JSON.stringify(signed.map((tx) => tx.txType)));
  form.set('tx_infos', JSON.stringify(signed.map((tx) => tx.txInfo)));
  const response = await fetch(`${kit.endpoint()}/api/v1/sendTxBatch`, {
    method: 'POST',
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A post-only buy of ETH well under the book (it rests). */
const resting = (owner: Owner, client: number, nonce: number, skipNonce: 0 | 1 = 1) =>
  kit.order(owner, { nonce, client, price: 100_000, skipNonce });

const quotaOf = async (owner: Owner) => {
  const response = await fetch(`${kit.endpoint()}/_sim/volume-quota?l1_address=${owner.wallet}`);
  return ((await response.json()) as { remaining: number }).remaining;
};

/** L2's weight admitted for the owner since the last reset. */
async function l2Weight(owner: Owner): Promise<number> {
  const pools = (await control.dialectRateLimits('lighter')).pools;
  const l2 = pools.find((pool) => pool.id === 'L2')!;
  return l2.keys.find((key) => key.key === owner.wallet.toLowerCase())?.admitted_weight ?? 0;
}

const activeClients = async (owner: Owner) =>
  (await kit.orders(owner, 'accountActiveOrders')).map((order) => order['client_order_index']);

describe('Lighter dialect: sendTxBatch', () => {
  it('executes every transaction in order: one hash each, one request of L2, quota per transaction', async () => {
    const owner = await kit.owner('batch-three');
    await control.resetDialectRateLimits('lighter');
    const nonce = Date.now();
    const answer = await sendBatch([1, 2, 3].map((i) => resting(owner, i, nonce + i)));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      code: 200,
      tx_hash: [expect.any(String), expect.any(String), expect.any(String)],
      // The first took the free transaction of the 15 s, the next two spent quota.
      volume_quota_remaining: 998,
      message: '{"ratelimit": "998 volume quota remaining."}',
    });
    expect(new Set(answer.body['tx_hash'] as string[]).size).toBe(3);
    expect(await quotaOf(owner)).toBe(998);
    expect(await l2Weight(owner)).toBe(1);
    expect(await activeClients(owner)).toEqual([1, 2, 3]);
    expect((await kit.txsOf(owner)).map((tx) => tx.nonce)).toEqual([1, 2, 3].map((i) => nonce + i));
  });

  it('counts one per transaction against L2 under tx_batch_l2=per_transaction', async () => {
    await control.setDialectProfile('lighter', { tx_batch_l2: 'per_transaction' });
    const owner = await kit.owner('batch-l2-per-tx');
    await control.resetDialectRateLimits('lighter');
    const nonce = Date.now();
    const answer = await sendBatch([1, 2, 3, 4].map((i) => resting(owner, i, nonce + i)));
    expect(answer.status).toBe(200);
    expect(await l2Weight(owner)).toBe(4);
  });

  it('takes consecutive nonces without skip nonce; one out of turn refuses the whole batch (whole)', async () => {
    const owner = await kit.owner('batch-nonces');
    const next = await kit.nextNonce(owner);
    const quota = await quotaOf(owner);
    const outOfTurn = await sendBatch([resting(owner, 1, next, 0), resting(owner, 2, next + 2, 0)]);
    expect(outOfTurn.status).toBe(400);
    expect(outOfTurn.body['code']).toBe(21104);
    expect(await kit.nextNonce(owner)).toBe(next);
    expect(await quotaOf(owner)).toBe(quota);
    expect(await activeClients(owner)).toEqual([]);
    const inTurn = await sendBatch([resting(owner, 1, next, 0), resting(owner, 2, next + 1, 0)]);
    expect(inTurn.status).toBe(200);
    expect(await kit.nextNonce(owner)).toBe(next + 2);
    expect(await activeClients(owner)).toEqual([1, 2]);
  });

  it('under tx_batch_refusal=prefix the transactions before the refused one execute', async () => {
    await control.setDialectProfile('lighter', { tx_batch_refusal: 'prefix' });
    const owner = await kit.owner('batch-prefix');
    const next = await kit.nextNonce(owner);
    const answer = await sendBatch([
      resting(owner, 1, next, 0),
      resting(owner, 2, next + 5, 0),
      resting(owner, 3, next + 2, 0),
    ]);
    expect(answer.status).toBe(400);
    expect(answer.body['code']).toBe(21104);
    expect(await activeClients(owner)).toEqual([1]);
    expect(await kit.nextNonce(owner)).toBe(next + 1);
  });

  it('a post-only that would cross is closed by the sequencer; its batch stands and answers every hash', async () => {
    const owner = await kit.owner('batch-cross');
    const ask = await kit.best('asks');
    const nonce = Date.now();
    const crossing = kit.order(owner, { nonce: nonce + 2, client: 2, price: ask + 100 });
    const answer = await sendBatch([
      resting(owner, 1, nonce + 1),
      crossing,
      resting(owner, 3, nonce + 3),
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body['tx_hash']).toHaveLength(3);
    expect(await activeClients(owner)).toEqual([1, 3]);
    const inactive = await kit.orders(owner, 'accountInactiveOrders');
    expect(inactive).toEqual([
      expect.objectContaining({ client_order_index: 2, status: 'canceled-post-only' }),
    ]);
  });

  it('a refusal against the book stops the batch there: before it stands, after it is given back', async () => {
    const owner = await kit.owner('batch-book-refusal');
    const nonce = Date.now();
    const answer = await sendBatch([
      resting(owner, 1, nonce + 1),
      kit.cancel(owner, 999, nonce + 2),
      resting(owner, 3, nonce + 3),
    ]);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 21600 });
    expect(await activeClients(owner)).toEqual([1]);
    expect((await kit.txsOf(owner)).map((tx) => tx.nonce)).toEqual([nonce + 1]);
    // The nonce after the refused one was given back: it can still be used.
    expect((await kit.sendTx(resting(owner, 3, nonce + 3))).status).toBe(200);
  });

  it('cancels in a batch spend no quota; a cancel and a placement go together', async () => {
    const owner = await kit.owner('batch-cancel-place');
    const nonce = Date.now();
    await sendBatch([resting(owner, 1, nonce + 1), resting(owner, 2, nonce + 2)]);
    const quota = await quotaOf(owner);
    const answer = await sendBatch([
      kit.cancel(owner, 1, nonce + 3),
      kit.cancel(owner, 2, nonce + 4),
      resting(owner, 5, nonce + 5),
    ]);
    expect(answer.status).toBe(200);
    expect(await quotaOf(owner)).toBe(quota - 1);
    expect(await activeClients(owner)).toEqual([5]);
  });

  it('refuses more than 50 transactions, mismatched arrays and a second API key, executing nothing', async () => {
    const owner = await kit.owner('batch-shape');
    const other = await kit.owner('batch-shape-other');
    const nonce = Date.now();
    const fiftyOne = Array.from({ length: 51 }, (_, i) => resting(owner, i + 1, nonce + i));
    expect(await sendBatch(fiftyOne)).toMatchObject({ status: 400, body: { code: 21501 } });
    const two = await sendBatch([resting(owner, 1, nonce + 100), resting(other, 2, nonce + 101)]);
    expect(two).toMatchObject({ status: 400, body: { code: 21501 } });
    const form = new FormData();
    form.set('tx_types', '[14, 14]');
    form.set('tx_infos', JSON.stringify([resting(owner, 1, nonce + 200).txInfo]));
    const mismatched = await fetch(`${kit.endpoint()}/api/v1/sendTxBatch`, {
      method: 'POST',
      body: form,
    });
    expect(mismatched.status).toBe(400);
    expect(await activeClients(owner)).toEqual([]);
    expect(await kit.txsOf(owner)).toEqual([]);
    const fifty = await sendBatch(fiftyOne.slice(0, 50));
    expect(fifty.status).toBe(200);
    expect(fifty.body['tx_hash']).toHaveLength(50);
  });
});
