import { createHash, createHmac } from 'node:crypto';

/**
 * A stand-in for Lighter's signer library, for tests only. ccxt 4.5.84 loads
 * Lighter's signer as Go compiled to WebAssembly: it requires the file at
 * `options.wasmExecPath` (Go's `wasm_exec.js`, which defines `globalThis.Go`),
 * instantiates `options.libraryPath` and runs it, and the program registers
 * its functions on `globalThis`. This module is that `wasm_exec.js` for the
 * tests: its `Go` registers functions with the signer's names and argument
 * order (as ccxt 4.5.84 calls them) that lay out each transaction as
 * lighter-go's signer does (its `L2TxAttributes` included; lighter-go
 * wasm/main.go registers the same names and arguments). Their `Sig` is an HMAC of the transaction under the API key's
 * private key, 80 bytes like Lighter's Schnorr signature: the right form, not
 * Lighter's scheme, which no package this project can use implements or
 * verifies. Nothing here reaches production: deployments provide the real
 * signer (docs/live-venues.md: "Lighter's signer").
 */

/** How long a signed transaction stays valid (the signer's default: 10 minutes). */
const TX_LIFETIME_MS = 10 * 60_000;
/** An order with expiry -1 rests for 28 days (the signer's default). */
const ORDER_LIFETIME_MS = 28 * 86_400_000;
const TX_CREATE_ORDER = 14;
const TX_CANCEL_ORDER = 15;
const TX_CANCEL_ALL_ORDERS = 16;
/** The cancel-all's market index meaning every market (lighter-go `NilMarketIndex`). */
const NIL_MARKET_INDEX = 255;

type SignResult = { txType: number; txInfo: string } | { error: string };

const clients = new Map<string, string>();

/**
 * The transaction's `L2TxAttributes` as lighter-go's signer writes them
 * (types/tx_request.go `ConstructL2TxAttributes`, types/txtypes/tx_attributes.go):
 * type to value for each attribute set (1-3 integrator and its fees, 4 skip
 * nonce, 6-7 self-trade modes), `null` when none is.
 */
function txAttributes(values: Record<number, number>): Record<string, number> | null {
  const set = Object.entries(values).filter(([type, value]) =>
    Number(type) === 4 ? value === 1 : value !== 0,
  );
  return set.length === 0 ? null : Object.fromEntries(set);
}
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
  nonce: number,
  attributes: Record<string, number> | null,
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
    Nonce: nonce,
  };
  const signed = { ...info, Sig: sign(privateKey, { ...info, attributes }) };
  return { txType, txInfo: JSON.stringify({ ...signed, L2TxAttributes: attributes }) };
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
    selfTradeBehaviorMode: number,
    selfTradeEqualityMode: number,
    skipNonce: number,
    nonce: number,
    apiKeyIndex: number,
    accountIndex: number,
  ): SignResult {
    return signTx(
      TX_CREATE_ORDER,
      apiKeyIndex,
      accountIndex,
      {
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
      },
      nonce,
      txAttributes({
        1: integratorAccountIndex,
        2: integratorTakerFee,
        3: integratorMakerFee,
        4: skipNonce,
        6: selfTradeBehaviorMode,
        7: selfTradeEqualityMode,
      }),
    );
  },
  SignCancelOrder(
    marketIndex: number,
    orderIndex: number,
    skipNonce: number,
    nonce: number,
    apiKeyIndex: number,
    accountIndex: number,
  ): SignResult {
    return signTx(
      TX_CANCEL_ORDER,
      apiKeyIndex,
      accountIndex,
      {
        MarketIndex: marketIndex,
        Index: orderIndex,
      },
      nonce,
      txAttributes({ 4: skipNonce }),
    );
  },
  /** A cancel-all (immediate, scheduled at `time`, or abort), of one market when it names one. */
  SignCancelAllOrders(
    timeInForce: number,
    time: number,
    marketIndex: number,
    skipNonce: number,
    nonce: number,
    apiKeyIndex: number,
    accountIndex: number,
  ): SignResult {
    const market: Record<number, number> =
      marketIndex === NIL_MARKET_INDEX ? {} : { 5: marketIndex };
    return signTx(
      TX_CANCEL_ALL_ORDERS,
      apiKeyIndex,
      accountIndex,
      { TimeInForce: timeInForce, Time: time },
      nonce,
      txAttributes({ 4: skipNonce, ...market }),
    );
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
