import { createHash, createHmac } from 'node:crypto';

/**
 * A stand-in for Lighter's signer library, for tests only. ccxt 4.5.84 loads
 * Lighter's signer as Go compiled to WebAssembly: it requires the file at
 * `options.wasmExecPath` (Go's `wasm_exec.js`, which defines `globalThis.Go`),
 * instantiates `options.libraryPath` and runs it, and the program registers
 * its functions on `globalThis`. This module is that `wasm_exec.js` for the
 * tests: its `Go` registers functions with the signer's names and argument
 * order (as ccxt 4.5.84 calls them) that lay out each transaction as the
 * signer does. Their `Sig` is an HMAC of the transaction under the API key's
 * private key, 80 bytes like Lighter's Schnorr signature: the right form, not
 * Lighter's scheme, which no package this project can use implements or
 * verifies. Nothing here reaches production: deployments provide the real
 * signer (README: "Lighter's signer").
 */

/** How long a signed transaction stays valid (the signer's default: 10 minutes). */
const TX_LIFETIME_MS = 10 * 60_000;
/** An order with expiry -1 rests for 28 days (the signer's default). */
const ORDER_LIFETIME_MS = 28 * 86_400_000;
const TX_CREATE_ORDER = 14;
const TX_CANCEL_ORDER = 15;

type SignResult = { txType: number; txInfo: string } | { error: string };

const clients = new Map<string, string>();
const clientKey = (apiKeyIndex: number, accountIndex: number) => `${apiKeyIndex}:${accountIndex}`;

function sign(privateKey: string, fields: Record<string, unknown>): string {
  const body = JSON.stringify(fields);
  const mac = createHmac('sha512', Buffer.from(privateKey, 'hex')).update(body).digest();
  const tail = createHash('sha256').update(mac).digest().subarray(0, 16);
  return Buffer.concat([mac, tail]).toString('base64');
}

function signTx(
  txType: number,
  apiKeyIndex: number,
  accountIndex: number,
  fields: Record<string, unknown>,
): SignResult {
  const privateKey = clients.get(clientKey(apiKeyIndex, accountIndex));
  if (!privateKey) {
    return {
      error: `client is not created for apiKeyIndex: ${apiKeyIndex} accountIndex: ${accountIndex}`,
    };
  }
  const info = {
    AccountIndex: accountIndex,
    ApiKeyIndex: apiKeyIndex,
    ...fields,
    ExpiredAt: Date.now() + TX_LIFETIME_MS,
  };
  return { txType, txInfo: JSON.stringify({ ...info, Sig: sign(privateKey, info) }) };
}

const signer = {
  CreateClient(
    _url: string,
    privateKey: string,
    _chainId: number,
    apiKeyIndex: number,
    accountIndex: number,
  ): Record<string, never> | { error: string } {
    const key = String(privateKey).replace(/^0x/, '');
    if (!/^[0-9a-fA-F]{80}$/.test(key)) {
      return { error: 'invalid private key length' };
    }
    clients.set(clientKey(apiKeyIndex, accountIndex), key);
    return {};
  },
  SignCreateOrder(
    marketIndex: number,
    clientOrderIndex: number,
    baseAmount: number,
    price: number,
    isAsk: number,
    orderType: number,
    timeInForce: number,
    reduceOnly: number,
    triggerPrice: number,
    orderExpiry: number,
    integratorAccountIndex: number,
    integratorTakerFee: number,
    integratorMakerFee: number,
    _selfTradeBehaviorMode: number,
    _selfTradeEqualityMode: number,
    skipNonce: number,
    nonce: number,
    apiKeyIndex: number,
    accountIndex: number,
  ): SignResult {
    return signTx(TX_CREATE_ORDER, apiKeyIndex, accountIndex, {
      MarketIndex: marketIndex,
      ClientOrderIndex: clientOrderIndex,
      BaseAmount: baseAmount,
      Price: price,
      IsAsk: isAsk,
      Type: orderType,
      TimeInForce: timeInForce,
      ReduceOnly: reduceOnly,
      TriggerPrice: triggerPrice,
      OrderExpiry: orderExpiry === -1 ? Date.now() + ORDER_LIFETIME_MS : orderExpiry,
      IntegratorAccountIndex: integratorAccountIndex,
      IntegratorTakerFee: integratorTakerFee,
      IntegratorMakerFee: integratorMakerFee,
      SkipNonce: skipNonce,
      Nonce: nonce,
    });
  },
  SignCancelOrder(
    marketIndex: number,
    orderIndex: number,
    skipNonce: number,
    nonce: number,
    apiKeyIndex: number,
    accountIndex: number,
  ): SignResult {
    return signTx(TX_CANCEL_ORDER, apiKeyIndex, accountIndex, {
      MarketIndex: marketIndex,
      Index: orderIndex,
      SkipNonce: skipNonce,
      Nonce: nonce,
    });
  },
  CreateAuthToken(
    deadline: number,
    apiKeyIndex: number,
    accountIndex: number,
  ): { authToken: string } | { error: string } {
    const privateKey = clients.get(clientKey(apiKeyIndex, accountIndex));
    if (!privateKey) {
      return {
        error: `client is not created for apiKeyIndex: ${apiKeyIndex} accountIndex: ${accountIndex}`,
      };
    }
    const message = `${deadline}:${accountIndex}:${apiKeyIndex}`;
    const mac = createHmac('sha256', Buffer.from(privateKey, 'hex')).update(message).digest('hex');
    return { authToken: `${message}:${mac}` };
  },
};

/** Go's loader, as ccxt uses it: `new Go()`, its `importObject`, and `run` registering the functions. */
class Go {
  readonly importObject = {};

  run(): void {
    Object.assign(globalThis, signer);
  }
}

(globalThis as { Go?: unknown }).Go = Go;
