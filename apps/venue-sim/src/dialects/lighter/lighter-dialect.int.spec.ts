import Big from 'big.js';
import { CcxtVenueClient, createCcxtExchange, type PlaceOrderRequest } from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import {
  harnessWallet,
  lighterApiKeyCredentials,
  liveTestOptions,
} from '../../testing/live-harness';
import { lighterTestSignerFiles } from '../../testing/lighter-test-signer-files';
import { SimControl } from '../../testing/sim-control';

// Lighter's dialect as ccxt 4.5.84 meets it: signed transactions checked for
// layout, API key, nonce, expiry, signature form and integrator; and the
// live client's nonces, which ccxt takes from the millisecond clock.

let sim: RunningVenueSim;
let control: SimControl;
const endpoint = () => `${sim.url}/dialects/lighter`;

beforeAll(async () => {
  sim = await startVenueSim({ seed: 7, tickMs: 0 });
  control = new SimControl(sim.url);
});

afterAll(async () => {
  await sim.stop();
});

interface Account {
  index: number;
  apiKeyIndex: number;
  privateKey: string;
  credentials: Awaited<ReturnType<typeof lighterApiKeyCredentials>>;
}

async function account(label: string): Promise<Account> {
  const wallet = harnessWallet(`lighter-dialect:${label}`).address;
  await control.deposit('lighter', wallet, '1000000');
  const credentials = await lighterApiKeyCredentials(sim.url, wallet, `lighter-dialect:${label}`);
  const [index, apiKeyIndex] = credentials.apiKey!.split(':').map(Number);
  return { index: index!, apiKeyIndex: apiKeyIndex!, privateKey: credentials.secret!, credentials };
}

/** The stand-in signer's functions, loaded the way ccxt loads the signer. */
function signer(): Record<string, (...args: unknown[]) => { txType: number; txInfo: string }> {
  const { wasmExecPath } = lighterTestSignerFiles();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(wasmExecPath);
  const Go = (globalThis as unknown as { Go: new () => { run(): void } }).Go;
  new Go().run();
  return globalThis as unknown as Record<
    string,
    (...args: unknown[]) => { txType: number; txInfo: string }
  >;
}

async function sendTx(txType: number, txInfo: string | Record<string, unknown>) {
  const form = new FormData();
  form.set('tx_type', String(txType));
  form.set('tx_info', typeof txInfo === 'string' ? txInfo : JSON.stringify(txInfo));
  const response = await fetch(`${endpoint()}/api/v1/sendTx`, { method: 'POST', body: form });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function txsOf(accountIndex: number) {
  const response = await fetch(`${endpoint()}/_sim/txs?account=${accountIndex}`);
  return (
    (await response.json()) as {
      txs: Array<{ nonce: number; tx_type: number; tx_info: Record<string, unknown> }>;
    }
  ).txs;
}

/** A post-only buy far below the book, signed by the stand-in signer with this nonce. */
function restingBuy(
  sign: ReturnType<typeof signer>,
  owner: Account,
  nonce: number,
  client: number,
) {
  sign['CreateClient']!('', owner.privateKey, 304, owner.apiKeyIndex, owner.index);
  // ETH (market 1): price decimals 2, size decimals 4; 1000.00 for 0.0100.
  return sign['SignCreateOrder']!(
    1,
    client,
    100,
    100_000,
    0,
    0,
    2,
    0,
    0,
    -1,
    0,
    0,
    0,
    0,
    0,
    1,
    nonce,
    owner.apiKeyIndex,
    owner.index,
  );
}

describe('Lighter dialect: signed transactions', () => {
  it('executes a nonce once per API key: the same nonce again is refused (21104)', async () => {
    const owner = await account('nonce-twice');
    const sign = signer();
    const nonce = Date.now();
    const first = restingBuy(sign, owner, nonce, 11);
    expect(await sendTx(first.txType, first.txInfo)).toMatchObject({
      status: 200,
      body: { code: 200 },
    });
    const again = restingBuy(sign, owner, nonce, 12);
    const refused = await sendTx(again.txType, again.txInfo);
    expect(refused.status).toBe(400);
    expect(refused.body['code']).toBe(21104);
    expect((await txsOf(owner.index)).map((tx) => tx.nonce)).toEqual([nonce]);
  });

  it('refuses an integrator fee, a signature out of form, an expired transaction and an unknown key', async () => {
    const owner = await account('refusals');
    const sign = signer();
    const signed = JSON.parse(restingBuy(sign, owner, Date.now(), 21).txInfo) as Record<
      string,
      unknown
    >;
    const cases: Array<[Record<string, unknown>, number]> = [
      [
        {
          ...signed,
          L2TxAttributes: { '1': 718718, '3': 1000, '4': 1 },
          Nonce: Date.now() + 1,
        },
        21146,
      ],
      [{ ...signed, Sig: 'AAAA', Nonce: Date.now() + 2 }, 21120],
      [{ ...signed, ExpiredAt: Date.now() - 1, Nonce: Date.now() + 3 }, 21501],
      [{ ...signed, ApiKeyIndex: 200, Nonce: Date.now() + 4 }, 21109],
      [{ ...signed, Type: 1, Nonce: Date.now() + 5 }, 21710],
    ];
    for (const [txInfo, code] of cases) {
      const answer = await sendTx(14, txInfo);
      expect({ status: answer.status, code: answer.body['code'] }).toEqual({ status: 400, code });
    }
    expect(await txsOf(owner.index)).toEqual([]);
    expect(
      (await control.accountOrders('lighter', harnessWallet('lighter-dialect:refusals').address))
        .orders,
    ).toEqual([]);
  });
});

describe('Lighter live client: nonces under concurrency', () => {
  async function liveClient(owner: Account): Promise<CcxtVenueClient> {
    const exchange = await createCcxtExchange('lighter', owner.credentials, {
      endpoint: endpoint(),
      ...liveTestOptions('lighter'),
    });
    const client = new CcxtVenueClient({ venue: 'lighter', exchange });
    await client.connect();
    return client;
  }

  it('never signs two transactions with one nonce, even when every one is signed in the same millisecond', async () => {
    const owner = await account('burst');
    const client = await liveClient(owner);
    try {
      const book = (await (
        await fetch(`${endpoint()}/api/v1/orderBookOrders?market_id=1&limit=1`)
      ).json()) as { bids: Array<{ price: string }> };
      const price = new Big(book.bids[0]!.price).times(0.9).round(2).toFixed();
      const requests: PlaceOrderRequest[] = Array.from({ length: 12 }, (_, i) => ({
        symbol: 'ETH',
        side: 'buy',
        price,
        size: '0.01',
        clientOrderId: `${'ab'.repeat(15)}${i.toString(16).padStart(2, '0')}`,
      }));
      // ccxt takes each nonce from the clock: frozen, every placement of the
      // burst reads the same millisecond (a burst on a fast machine does).
      const frozen = Date.now();
      const clock = jest.spyOn(Date, 'now').mockReturnValue(frozen);
      let acks;
      try {
        acks = await Promise.all(requests.map((request) => client.placePostOnly(request)));
      } finally {
        clock.mockRestore();
      }
      expect(acks.every((ack) => ack.order.status === 'open')).toBe(true);
      await Promise.all(
        acks.map((ack) => client.cancel({ orderId: ack.order.orderId, symbol: 'ETH' })),
      );
      const txs = await txsOf(owner.index);
      expect(txs.filter((tx) => tx.tx_type === 14)).toHaveLength(12);
      expect(txs.filter((tx) => tx.tx_type === 15)).toHaveLength(12);
      expect(new Set(txs.map((tx) => tx.nonce)).size).toBe(txs.length);
      // Fees off: no transaction names an integrator.
      expect(txs.every((tx) => !tx.tx_info['IntegratorAccountIndex'])).toBe(true);
    } finally {
      await client.close();
    }
  });
});
