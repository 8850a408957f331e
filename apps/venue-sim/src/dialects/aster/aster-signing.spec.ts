import { keccak256, toHex, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { AsterError } from './aster-errors';
import {
  ASTER_MESSAGE_TYPES,
  ASTER_SIGNING_DOMAIN,
  NonceBook,
  recoverAsterSigner,
  splitSignedString,
  verifyAsterRequest,
} from './aster-signing';

// ccxt's own signer, offline: `sign()` is synchronous and touches no network.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ccxt = require('ccxt') as {
  pro: Record<string, new (config: Record<string, unknown>) => CcxtSigner>;
};

interface CcxtSigner {
  milliseconds: () => number;
  sign(
    path: string,
    api: string,
    method: string,
    params: Record<string, unknown>,
  ): { url: string; body?: string };
}

const keyOf = (label: string): Hex => keccak256(toHex(`aster-signing-spec:${label}`));
const walletKey = keyOf('wallet');
const wallet = privateKeyToAccount(walletKey).address.toLowerCase();
const other = privateKeyToAccount(keyOf('other'));

const ORDER = {
  symbol: 'BTCUSDT',
  side: 'BUY',
  type: 'LIMIT',
  timeInForce: 'GTX',
  quantity: '0.01',
  price: '50000',
  newClientOrderId: 'spec-1',
};

function ccxtSigned(privateKey: Hex, params: Record<string, unknown>, atMs = Date.now()): string {
  const exchange = new ccxt.pro['aster']({ privateKey });
  exchange.milliseconds = () => atMs;
  const { body } = exchange.sign('v3/order', 'fapiPrivate', 'POST', params);
  if (!body) {
    throw new Error('ccxt signed no body');
  }
  return body;
}

async function refusal(promise: Promise<unknown>): Promise<{ code: number; msg: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AsterError) {
      return { code: error.code, msg: error.message };
    }
    throw error;
  }
  throw new Error('expected a refusal');
}

const signTyped = (msg: string, key: Hex = walletKey): Promise<Hex> =>
  privateKeyToAccount(key).signTypedData({
    domain: ASTER_SIGNING_DOMAIN,
    types: ASTER_MESSAGE_TYPES,
    primaryType: 'Message',
    message: { msg },
  });

describe('Aster v3 request signatures', () => {
  it('accepts a request ccxt signed, with the wallet as user and signer', async () => {
    const body = ccxtSigned(walletKey, ORDER);
    const verified = await verifyAsterRequest(body, Date.now(), new NonceBook());
    expect(verified.user).toBe(wallet);
    expect(verified.signer).toBe(wallet);
    expect(verified.params).toMatchObject(ORDER);
    expect(verified.expiresAtMs).toBeUndefined();
  });

  it('signs exactly as EIP-712 does: viem over the same msg gives ccxt signature', async () => {
    const { msg, signature } = splitSignedString(ccxtSigned(walletKey, ORDER));
    expect(await signTyped(msg)).toBe(signature);
  });

  it('recovers the signer of an independently computed vector (fixed key, msg and signature)', async () => {
    const msg =
      'nonce=1748310859508867&user=0xe22d8489e5d7e8a38b538274d8785f344b173d9f' +
      '&signer=0xe22d8489e5d7e8a38b538274d8785f344b173d9f&symbol=BTCUSDT&side=BUY' +
      '&type=LIMIT&timeInForce=GTX&quantity=0.01&price=50000';
    const signature =
      '0xe24f294c66e694bcb5a6b6bb6a9c26c967c079d2c21d7920480879c99c515a1d' +
      '51a447da7d506b31e51de7d234d217070d96244ff14cfcd14e35f520dc19caa91b';
    expect(wallet).toBe('0xe22d8489e5d7e8a38b538274d8785f344b173d9f');
    expect(await signTyped(msg)).toBe(signature);
    expect(await recoverAsterSigner(msg, signature)).toBe(wallet);
    // The vector's own clock: accepted within 10 s of its nonce, refused after.
    const atMs = 1748310859508;
    await expect(
      verifyAsterRequest(`${msg}&signature=${signature}`, atMs, new NonceBook()),
    ).resolves.toMatchObject({ user: wallet, nonceUs: 1748310859508867 });
    expect(
      await refusal(
        verifyAsterRequest(`${msg}&signature=${signature}`, atMs + 10_001, new NonceBook()),
      ),
    ).toEqual({ code: -1021, msg: 'Timestamp for this request is outside of the recvWindow.' });
  });

  it('refuses the same body with one byte changed (the signature no longer recovers the signer)', async () => {
    const body = ccxtSigned(walletKey, ORDER);
    const tampered = body.replace('quantity=0.01', 'quantity=0.02');
    expect(tampered).not.toBe(body);
    expect(await refusal(verifyAsterRequest(tampered, Date.now(), new NonceBook()))).toEqual({
      code: -1022,
      msg: 'Signature for this request is not valid.',
    });
  });

  it('refuses a signature by another key than the signer it names', async () => {
    const nonce = Date.now() * 1000;
    const msg = `nonce=${nonce}&user=${wallet}&signer=${wallet}&symbol=BTCUSDT`;
    const forged = `${msg}&signature=${await signTyped(msg, keyOf('other'))}`;
    expect((await refusal(verifyAsterRequest(forged, Date.now(), new NonceBook()))).code).toBe(
      -1022,
    );
  });

  it('refuses a signer acting for another user (no agent approvals are modelled)', async () => {
    const signer = other.address.toLowerCase();
    const msg = `nonce=${Date.now() * 1000}&user=${wallet}&signer=${signer}&symbol=BTCUSDT`;
    const body = `${msg}&signature=${await signTyped(msg, keyOf('other'))}`;
    expect(await refusal(verifyAsterRequest(body, Date.now(), new NonceBook()))).toEqual({
      code: -2015,
      msg: 'Invalid API-key, IP, or permissions for action.',
    });
  });

  it('refuses a replayed nonce, and one older than a full list of recent nonces', async () => {
    const nonces = new NonceBook();
    const body = ccxtSigned(walletKey, ORDER);
    await verifyAsterRequest(body, Date.now(), nonces);
    expect(await refusal(verifyAsterRequest(body, Date.now(), nonces))).toEqual({
      code: -4225,
      msg: 'Nonce Expired',
    });
    const now = Date.now();
    for (let i = 1; i <= 100; i += 1) {
      nonces.accept(wallet, now * 1000 + i);
    }
    const older = ccxtSigned(walletKey, ORDER, now - 1);
    expect((await refusal(verifyAsterRequest(older, now, nonces))).code).toBe(-4225);
  });

  it('refuses a nonce more than 10 s old or ahead', async () => {
    const now = Date.now();
    const stale = ccxtSigned(walletKey, ORDER, now - 10_500);
    const ahead = ccxtSigned(walletKey, ORDER, now + 10_500);
    expect((await refusal(verifyAsterRequest(stale, now, new NonceBook()))).code).toBe(-1021);
    expect((await refusal(verifyAsterRequest(ahead, now, new NonceBook()))).code).toBe(-1021);
  });

  it('honours a recvWindow: expiry = nonce / 1000 + recvWindow', async () => {
    const now = Date.now();
    const body = ccxtSigned(walletKey, { ...ORDER, recvWindow: 2000 }, now - 1000);
    const verified = await verifyAsterRequest(body, now, new NonceBook());
    expect(verified.expiresAtMs).toBe(now - 1000 + 2000);
    const late = ccxtSigned(walletKey, { ...ORDER, recvWindow: 500 }, now - 1000);
    expect((await refusal(verifyAsterRequest(late, now, new NonceBook()))).code).toBe(-1021);
  });

  it('refuses a request without signature or without the auth fields', async () => {
    const body = ccxtSigned(walletKey, ORDER);
    const unsigned = body.slice(0, body.lastIndexOf('&signature='));
    expect((await refusal(verifyAsterRequest(unsigned, Date.now(), new NonceBook()))).code).toBe(
      -1102,
    );
    const msg = `nonce=${Date.now() * 1000}&user=${wallet}&symbol=BTCUSDT`;
    const noSigner = `${msg}&signature=${await signTyped(msg)}`;
    expect(await refusal(verifyAsterRequest(noSigner, Date.now(), new NonceBook()))).toEqual({
      code: -1102,
      msg: "Mandatory parameter 'signer' was not sent, was empty/null, or malformed.",
    });
  });
});
