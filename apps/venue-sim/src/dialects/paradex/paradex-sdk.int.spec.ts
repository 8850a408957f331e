import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Big from 'big.js';
import { keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createCcxtExchange } from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { SimControl } from '../../testing/sim-control';

// The venue's own JavaScript SDK, `@paradex/sdk` 0.8.1 (tradeparadex/paradex.js),
// derives the Paradex account from an Ethereum key (its stark key from the
// wallet's signature of `Constant {action: "STARK Key"}`, the account address
// from the paraclear class hashes of the dialect's system config) and signs,
// with starknet.js's typed data, the onboarding, the auth request and an
// order; the dialect accepts each through its HTTP routes. The SDK is an ES
// module only (`"type": "module"`, dist/*.js with `import`), which jest's
// CommonJS runtime here does not load (the config compiles only @noble and
// @scure from node_modules): it runs in a child Node process, as it would in
// an application.

const SDK_SCRIPT = `
import { Client } from '@paradex/sdk';
import { buildConfig } from '@paradex/sdk/dist/config.js';
import { privateKeyToAccount } from 'viem/accounts';
const input = JSON.parse(process.env.PARADEX_SDK_INPUT);
const wallet = privateKeyToAccount(input.privateKey);
const signer = {
  signTypedData: (t) =>
    wallet.signTypedData({ domain: t.domain, types: t.types, primaryType: t.primaryType, message: t.message }),
};
const client = await Client.fromEthSigner({ config: buildConfig(input.config), signer });
const account = client.account;
const domain = { name: 'Paradex', chainId: input.config.starknet_chain_id, version: '1' };
const StarkNetDomain = ['name', 'chainId', 'version'].map((name) => ({ name, type: 'felt' }));
const sign = async (primaryType, fields, message) => {
  const types = { StarkNetDomain, [primaryType]: fields.map((name) => ({ name, type: 'felt' })) };
  const signature = await account.signMessage({ domain, primaryType, types, message });
  const [r, s] = Array.isArray(signature) ? signature : [signature.r, signature.s];
  return JSON.stringify([BigInt(r).toString(), BigInt(s).toString()]);
};
process.stdout.write(JSON.stringify({
  address: account.address,
  publicKey: await account.signer.getPubKey(),
  onboarding: await sign('Constant', ['action'], { action: 'Onboarding' }),
  auth: await sign('Request', ['method', 'path', 'body', 'timestamp', 'expiration'], {
    method: 'POST', path: '/v1/auth', body: '', timestamp: input.timestamp, expiration: input.expiration,
  }),
  order: await sign('Order', ['timestamp', 'market', 'side', 'orderType', 'size', 'price'], input.order),
}));
`;

interface SdkOutput {
  address: string;
  publicKey: string;
  onboarding: string;
  auth: string;
  order: string;
}

const MARKET = 'ETH-USD-PERP';
const SCALE = 100_000_000;
const run = promisify(execFile);

let sim: RunningVenueSim;
let base: string;

beforeAll(async () => {
  sim = await startVenueSim({ seed: 43, tickMs: 0 });
  base = `${sim.url}/dialects/paradex/v1`;
});

afterAll(async () => {
  await sim.stop();
});

const shortString = (text: string): string => `0x${Buffer.from(text).toString('hex')}`;

async function sdkSignatures(privateKey: string, input: Record<string, unknown>) {
  const config = (await (await fetch(`${base}/system/config`)).json()) as Record<string, unknown>;
  const { stdout } = await run('node', ['--input-type=module', '-e', SDK_SCRIPT], {
    cwd: process.cwd(),
    env: { ...process.env, PARADEX_SDK_INPUT: JSON.stringify({ privateKey, config, ...input }) },
  });
  return JSON.parse(stdout) as SdkOutput;
}

async function post(path: string, headers: Record<string, string>, body: unknown) {
  const response = await fetch(`${base}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("the Paradex dialect and the venue's own SDK", () => {
  it('takes the account the SDK derives, its onboarding, its auth and its order signatures', async () => {
    const privateKey = keccak256(toHex('paradex-sdk-spec'));
    const wallet = privateKeyToAccount(privateKey).address;
    const book = (await (await fetch(`${base}/orderbook/${MARKET}`)).json()) as {
      bids: string[][];
    };
    const price = book.bids[0][0];
    const size = '1';
    const now = Date.now();
    const timestamp = Math.floor(now / 1000);
    const order = {
      timestamp: now,
      market: shortString(MARKET),
      side: '1',
      orderType: shortString('LIMIT'),
      size: new Big(size).times(SCALE).toFixed(),
      price: new Big(price).times(SCALE).toFixed(),
    };
    const sdk = await sdkSignatures(privateKey, {
      timestamp,
      expiration: timestamp + 300,
      order,
    });

    // ccxt 4.5.84, which the live client uses, derives the same account from the same key.
    const ccxt = (await createCcxtExchange(
      'paradex',
      { privateKey, walletAddress: wallet },
      { endpoint: `${sim.url}/dialects/paradex` },
    )) as unknown as { retrieveAccount(): Promise<{ address: string }>; close(): Promise<void> };
    expect(BigInt((await ccxt.retrieveAccount()).address)).toBe(BigInt(sdk.address));
    await ccxt.close();

    const onboarded = await post(
      'onboarding',
      {
        'PARADEX-ETHEREUM-ACCOUNT': wallet,
        'PARADEX-STARKNET-ACCOUNT': sdk.address,
        'PARADEX-STARKNET-SIGNATURE': sdk.onboarding,
      },
      { public_key: sdk.publicKey },
    );
    expect(onboarded.status).toBe(200);
    const authed = await post(
      'auth',
      {
        'PARADEX-STARKNET-ACCOUNT': sdk.address,
        'PARADEX-STARKNET-SIGNATURE': sdk.auth,
        'PARADEX-TIMESTAMP': String(timestamp),
        'PARADEX-SIGNATURE-EXPIRATION': String(timestamp + 300),
      },
      {},
    );
    expect(authed.status).toBe(200);
    expect(authed.body['jwt_token']).toEqual(expect.any(String));

    await new SimControl(sim.url).deposit('paradex', wallet.toLowerCase(), '1000000');
    const placed = await post(
      'orders',
      { authorization: `Bearer ${String(authed.body['jwt_token'])}` },
      {
        market: MARKET,
        side: 'BUY',
        type: 'LIMIT',
        size,
        price,
        instruction: 'POST_ONLY',
        client_id: 'sdk-signed-1',
        signature: sdk.order,
        signature_timestamp: now,
      },
    );
    expect(placed).toMatchObject({
      status: 201,
      body: { status: 'NEW', client_id: 'sdk-signed-1' },
    });
  }, 30_000);
});
