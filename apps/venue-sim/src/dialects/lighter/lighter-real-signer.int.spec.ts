import { readFileSync } from 'node:fs';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { harnessWallet } from '../../testing/live-harness';
import { lighterTestApiKey } from '../../testing/lighter-test-signer-files';
import { SimControl } from '../../testing/sim-control';

// Transactions built by a published Lighter signer, sent to the dialect:
// lighter-ts-sdk 1.1.0-beta.1 ships `wasm/lighter-signer.wasm` (lighter-go's
// signer compiled to WebAssembly, by the SDK's own wasm/main.go) and Go's
// `wasm/wasm_exec.js`. Its functions take the SDK's arguments, not ccxt
// 4.5.84's: CreateClient(privateKey, accountIndex, apiKeyIndex, chainId),
// SignCreateOrder(11 arguments, the nonce last, no attributes),
// SignCancelOrder(marketIndex, index, nonce), CreateAuthToken(deadline).
// The signatures are real (Schnorr over ECgFp5); the dialect checks their
// form only: no verifier of the scheme exists on npm.

type Signer = Record<string, (...args: unknown[]) => Record<string, unknown>>;

let sim: RunningVenueSim;
let control: SimControl;
let signer: Signer;
const endpoint = () => `${sim.url}/dialects/lighter`;
/** A canonical ECgFp5 scalar (little-endian, below the group order): the key the wasm signs with. */
const PRIVATE_KEY = `${'11'.repeat(39)}01`;
const API_KEY_INDEX = 7;
const DAY_MS = 86_400_000;

/** Loads the SDK's wasm the way its node signer and ccxt do: Go's loader, then the program. */
async function loadPublishedSigner(): Promise<Signer> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(require.resolve('lighter-ts-sdk/wasm/wasm_exec.js'));
  const Go = (
    globalThis as unknown as { Go: new () => { importObject: object; run(i: unknown): void } }
  ).Go;
  const go = new Go();
  const bytes = readFileSync(require.resolve('lighter-ts-sdk/wasm/lighter-signer.wasm'));
  // The project's TypeScript libraries leave WebAssembly out; Node has it.
  const { WebAssembly: wasm } = globalThis as unknown as {
    WebAssembly: { instantiate(b: Buffer, i: object): Promise<{ instance: unknown }> };
  };
  const { instance } = await wasm.instantiate(bytes, go.importObject);
  void go.run(instance);
  return globalThis as unknown as Signer;
}

beforeAll(async () => {
  sim = await startVenueSim({ seed: 17, tickMs: 0 });
  control = new SimControl(sim.url);
  signer = await loadPublishedSigner();
});

afterAll(async () => {
  await sim.stop();
});

async function registeredAccount(): Promise<number> {
  const wallet = harnessWallet('lighter-real-signer').address;
  await control.deposit('lighter', wallet, '1000000');
  const response = await fetch(`${endpoint()}/_sim/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      l1_address: wallet,
      api_key_index: API_KEY_INDEX,
      // The dialect keeps the public half without checking signatures against it.
      public_key: lighterTestApiKey('real-signer').publicKey,
    }),
  });
  return ((await response.json()) as { account_index: number }).account_index;
}

async function sendTx(result: Record<string, unknown>, txType: number) {
  expect(result['error']).toBeFalsy();
  const form = new FormData();
  form.set('tx_type', String(txType));
  form.set('tx_info', String(result['txInfo']));
  const response = await fetch(`${endpoint()}/api/v1/sendTx`, { method: 'POST', body: form });
  return (await response.json()) as Record<string, unknown>;
}

async function nextNonce(account: number): Promise<number> {
  const query = `account_index=${account}&api_key_index=${API_KEY_INDEX}`;
  return (
    (await (await fetch(`${endpoint()}/api/v1/nextNonce?${query}`)).json()) as { nonce: number }
  ).nonce;
}

async function activeOrders(account: number) {
  const token = signer['CreateAuthToken']!(Math.floor(Date.now() / 1000) + 600)['authToken'];
  const response = await fetch(
    `${endpoint()}/api/v1/accountActiveOrders?account_index=${account}&market_id=1`,
    { headers: { authorization: String(token) } },
  );
  return ((await response.json()) as { orders: Array<Record<string, unknown>> }).orders;
}

describe('Lighter dialect: transactions of the published signer (lighter-ts-sdk wasm)', () => {
  it('accepts its create-order and cancel transactions, consecutive nonces without SkipNonce', async () => {
    const account = await registeredAccount();
    expect(signer['CreateClient']!(PRIVATE_KEY, account, API_KEY_INDEX, 304)).toEqual({
      error: '',
    });
    const nonce = await nextNonce(account);
    // ETH (market 1): 0.0100 at 1000.00, post-only, resting 28 days.
    const order = signer['SignCreateOrder']!(
      1,
      77,
      100,
      100_000,
      0,
      0,
      2,
      0,
      0,
      Date.now() + 28 * DAY_MS,
      nonce,
    );
    const layout = JSON.parse(String(order['txInfo'])) as Record<string, unknown>;
    expect(Object.keys(layout)).toEqual([
      'AccountIndex',
      'ApiKeyIndex',
      'MarketIndex',
      'ClientOrderIndex',
      'BaseAmount',
      'Price',
      'IsAsk',
      'Type',
      'TimeInForce',
      'ReduceOnly',
      'TriggerPrice',
      'OrderExpiry',
      'ExpiredAt',
      'Nonce',
      'Sig',
    ]);
    expect(await sendTx(order, 14)).toMatchObject({ code: 200 });
    const [resting] = await activeOrders(account);
    expect(resting).toMatchObject({ client_order_index: 77, status: 'open' });
    const orderIndex = Number(resting!['order_index']);
    expect(orderIndex).toBeGreaterThanOrEqual(2 ** 48);
    expect(await sendTx(signer['SignCancelOrder']!(1, orderIndex, nonce + 1), 15)).toMatchObject({
      code: 200,
    });
    expect(await activeOrders(account)).toEqual([]);
    // An IOC carries no expiry; one with an expiry the signer itself refuses.
    const ioc = signer['SignCreateOrder']!(1, 78, 100, 100_000, 1, 0, 0, 0, 0, 0, nonce + 2);
    expect(await sendTx(ioc, 14)).toMatchObject({ code: 200 });
    const iocWithExpiry = signer['SignCreateOrder']!(
      1,
      79,
      100,
      100_000,
      1,
      0,
      0,
      0,
      0,
      Date.now() + DAY_MS,
      nonce + 3,
    );
    expect(iocWithExpiry['error']).toBe('OrderExpiry is invalid');
    expect(await nextNonce(account)).toBe(nonce + 3);
  });

  it('accepts its cancel-all transactions: scheduled (the dead-man switch) and abort', async () => {
    const account = await registeredAccount();
    signer['CreateClient']!(PRIVATE_KEY, account, API_KEY_INDEX, 304);
    const nonce = await nextNonce(account);
    const scheduled = signer['SignCancelAllOrders']!(1, Date.now() + 10 * 60_000, nonce);
    const layout = JSON.parse(String(scheduled['txInfo'])) as Record<string, unknown>;
    expect(Object.keys(layout)).toEqual([
      'AccountIndex',
      'ApiKeyIndex',
      'TimeInForce',
      'Time',
      'ExpiredAt',
      'Nonce',
      'Sig',
    ]);
    expect(await sendTx(scheduled, 16)).toMatchObject({ code: 200 });
    const wallet = harnessWallet('lighter-real-signer').address;
    const state = async () =>
      (await fetch(`${sim.url}/control/venues/lighter/accounts/${wallet}/dead-man`)).json();
    expect(await state()).toMatchObject({ armed: true });
    expect(await sendTx(signer['SignCancelAllOrders']!(2, 0, nonce + 1), 16)).toMatchObject({
      code: 200,
    });
    expect(await state()).toMatchObject({ armed: false });
  });

  it('accepts a sendTxBatch of its transactions, consecutive nonces, each order executed', async () => {
    const account = await registeredAccount();
    signer['CreateClient']!(PRIVATE_KEY, account, API_KEY_INDEX, 304);
    const nonce = await nextNonce(account);
    const expiry = Date.now() + 28 * DAY_MS;
    const signed = [81, 82].map((client, i) =>
      signer['SignCreateOrder']!(1, client, 100, 100_000, 0, 0, 2, 0, 0, expiry, nonce + i),
    );
    // As lighter-python's send_tx_batch sends them: two JSON arrays, the signer's texts.
    const form = new FormData();
    form.set('tx_types', JSON.stringify([14, 14]));
    form.set('tx_infos', JSON.stringify(signed.map((tx) => String(tx['txInfo']))));
    const response = await fetch(`${endpoint()}/api/v1/sendTxBatch`, {
      method: 'POST',
      body: form,
    });
    expect(await response.json()).toMatchObject({
      code: 200,
      tx_hash: [expect.any(String), expect.any(String)],
    });
    const clients = (await activeOrders(account)).map((order) => order['client_order_index']);
    expect(clients).toEqual(expect.arrayContaining([81, 82]));
    expect(await nextNonce(account)).toBe(nonce + 2);
  });

  it('cannot serve ccxt 4.5.84: its CreateClient(url, key, chainId, apiKeyIndex, accountIndex) creates no client', () => {
    // ccxt then reads `'error' in null` and fails at start; were a client
    // created, ccxt's 19 SignCreateOrder arguments would be read as the
    // first 11 (the integrator index as the nonce).
    expect(signer['CreateClient']!('http://sim', PRIVATE_KEY, 304, API_KEY_INDEX, 1)).toBeNull();
  });
});
