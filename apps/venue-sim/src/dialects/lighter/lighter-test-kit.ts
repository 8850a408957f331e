import { harnessWallet, lighterApiKeyCredentials } from '../../testing/live-harness';
import { lighterTestSignerFiles } from '../../testing/lighter-test-signer-files';
import type { SimControl } from '../../testing/sim-control';

/**
 * What the Lighter dialect's specs share: accounts with a registered API
 * key, the stand-in signer loaded as ccxt loads Lighter's, and the venue's
 * routes (`sendTx`, `nextNonce`, the authenticated order reads).
 */

export interface Owner {
  index: number;
  apiKeyIndex: number;
  privateKey: string;
  wallet: string;
  credentials: Awaited<ReturnType<typeof lighterApiKeyCredentials>>;
}

export interface Signed {
  txType: number;
  txInfo: string;
}

type SignerFunctions = Record<string, (...args: unknown[]) => Record<string, unknown>>;

/** The stand-in signer's functions, loaded the way ccxt loads the signer. */
export function standInSigner(): SignerFunctions {
  const { wasmExecPath } = lighterTestSignerFiles();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(wasmExecPath);
  const Go = (globalThis as unknown as { Go: new () => { run(): void } }).Go;
  new Go().run();
  return globalThis as unknown as SignerFunctions;
}

/** An order to sign: ETH (market 1: price decimals 2, size decimals 4), post-only, skip nonce. */
export interface OrderSpec {
  nonce: number;
  client: number;
  price?: number;
  baseAmount?: number;
  isAsk?: 0 | 1;
  timeInForce?: 0 | 2;
  orderExpiry?: number;
  skipNonce?: 0 | 1;
  reduceOnly?: 0 | 1;
}

export class LighterKit {
  private readonly sign = standInSigner();

  constructor(
    private readonly simUrl: () => string,
    private readonly control: () => SimControl,
  ) {}

  /** The stand-in signer's functions, for a transaction this kit does not lay out itself. */
  signer(): SignerFunctions {
    return this.sign;
  }

  endpoint(): string {
    return `${this.simUrl()}/dialects/lighter`;
  }

  /** A wallet funded with `deposit` USDC and an API key registered on its account. */
  async owner(label: string, deposit = '1000000'): Promise<Owner> {
    const wallet = harnessWallet(`lighter-kit:${label}`).address;
    await this.control().deposit('lighter', wallet, deposit);
    const credentials = await lighterApiKeyCredentials(this.simUrl(), wallet, `kit:${label}`);
    const [index, apiKeyIndex] = credentials.apiKey!.split(':').map(Number);
    const owner = { index: index!, apiKeyIndex: apiKeyIndex!, privateKey: credentials.secret! };
    this.sign['CreateClient']!('', owner.privateKey, 304, owner.apiKeyIndex, owner.index);
    return { ...owner, wallet, credentials };
  }

  order(owner: Owner, spec: OrderSpec): Signed {
    const ioc = spec.timeInForce === 0;
    return this.sign['SignCreateOrder']!(
      ...[1, spec.client, spec.baseAmount ?? 100, spec.price ?? 100_000, spec.isAsk ?? 0, 0],
      ...[spec.timeInForce ?? 2, spec.reduceOnly ?? 0, 0, spec.orderExpiry ?? (ioc ? 0 : -1)],
      ...[0, 0, 0, 0, 0],
      ...[spec.skipNonce ?? 1, spec.nonce, owner.apiKeyIndex, owner.index],
    ) as unknown as Signed;
  }

  cancel(owner: Owner, index: number, nonce: number, skipNonce: 0 | 1 = 1): Signed {
    return this.sign['SignCancelOrder']!(
      1,
      index,
      skipNonce,
      nonce,
      owner.apiKeyIndex,
      owner.index,
    ) as unknown as Signed;
  }

  async sendTx(signed: Signed | { txType: number; txInfo: Record<string, unknown> }) {
    const form = new FormData();
    form.set('tx_type', String(signed.txType));
    const { txInfo } = signed;
    form.set('tx_info', typeof txInfo === 'string' ? txInfo : JSON.stringify(txInfo));
    const response = await fetch(`${this.endpoint()}/api/v1/sendTx`, {
      method: 'POST',
      body: form,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async nextNonce(owner: Owner): Promise<number> {
    const query = `account_index=${owner.index}&api_key_index=${owner.apiKeyIndex}`;
    const response = await fetch(`${this.endpoint()}/api/v1/nextNonce?${query}`);
    return ((await response.json()) as { nonce: number }).nonce;
  }

  async txsOf(owner: Owner) {
    const response = await fetch(`${this.endpoint()}/_sim/txs?account=${owner.index}`);
    const body = (await response.json()) as {
      txs: Array<{ nonce: number; tx_type: number; tx_info: Record<string, unknown> }>;
    };
    return body.txs;
  }

  /** The account's orders of ETH as the venue's authenticated reads give them. */
  async orders(owner: Owner, which: 'accountActiveOrders' | 'accountInactiveOrders') {
    const token = this.sign['CreateAuthToken']!(
      Math.floor(Date.now() / 1000) + 600,
      owner.apiKeyIndex,
      owner.index,
    )['authToken'] as string;
    const query = `account_index=${owner.index}&market_id=1&limit=100`;
    const response = await fetch(`${this.endpoint()}/api/v1/${which}?${query}`, {
      headers: { authorization: token },
    });
    const body = (await response.json()) as { orders: Array<Record<string, unknown>> };
    return body.orders;
  }

  /** The best price of a side of ETH's book, in the market's integer price units. */
  async best(side: 'bids' | 'asks'): Promise<number> {
    const response = await fetch(`${this.endpoint()}/api/v1/orderBookOrders?market_id=1&limit=1`);
    const book = (await response.json()) as Record<string, Array<{ price: string }>>;
    return Math.round(Number(book[side]![0]!.price) * 100);
  }
}
