import { pro } from 'ccxt';
import { keccak256, toHex } from 'viem';
import {
  messageHash,
  paradexAccountAddress,
  structHash,
  verifyStarkSignature,
  type TypedData,
} from './paradex-signing';

// Known answers: SNIP-12 revision 0's published "Mail" example (starknet.js
// `__tests__/utils/typedData.test.ts`, also in starknet-py and starknet-jvm),
// and what ccxt 4.5.84 itself derives and signs for Paradex (offline: the
// system config is given, so nothing goes to the network).

const MAIL: TypedData = {
  types: {
    StarkNetDomain: [
      { name: 'name', type: 'felt' },
      { name: 'version', type: 'felt' },
      { name: 'chainId', type: 'felt' },
    ],
    Person: [
      { name: 'name', type: 'felt' },
      { name: 'wallet', type: 'felt' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person' },
      { name: 'contents', type: 'felt' },
    ],
  },
  primaryType: 'Mail',
  domain: { name: 'StarkNet Mail', version: '1', chainId: 1 },
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
    contents: 'Hello, Bob!',
  },
};
const MAIL_ACCOUNT = '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826';

/** Paradex's system config as its testnet publishes it (ccxt's own sample). */
const SYSTEM_CONFIG = {
  starknet_chain_id: 'PRIVATE_SN_POTC_SEPOLIA',
  paraclear_account_proxy_hash: '0x3530cc4759d78042f1b543bf797f5f3d647cde0388c33734cf91b7f7b9314a9',
  paraclear_account_hash: '0x41cb0280ebadaa75f996d8d92c6f265f6d040bb3ba442e5f86a554f1765244e',
  l1_chain_id: '11155111',
};

const AUTH_TYPES = {
  Request: [
    { name: 'method', type: 'felt' },
    { name: 'path', type: 'felt' },
    { name: 'body', type: 'felt' },
    { name: 'timestamp', type: 'felt' },
    { name: 'expiration', type: 'felt' },
  ],
};

interface ParadexCcxt {
  options: Record<string, unknown>;
  retrieveAccount(): Promise<{ privateKey: string; publicKey: string; address: string }>;
  starknetEncodeStructuredData(
    domain: unknown,
    types: unknown,
    message: unknown,
    address: string,
  ): string;
  starknetSign(hash: string, privateKey: string): string;
}

async function ccxtAccount(label: string) {
  const privateKey = keccak256(toHex(`paradex-signing-spec:${label}`));
  const { privateKeyToAccount } = await import('viem/accounts');
  const exchange = new pro.paradex({
    privateKey,
    walletAddress: privateKeyToAccount(privateKey).address,
  }) as unknown as ParadexCcxt;
  exchange.options['systemConfig'] = SYSTEM_CONFIG;
  return { exchange, account: await exchange.retrieveAccount() };
}

const authRequest = (timestamp: number) => ({
  method: 'POST',
  path: '/v1/auth',
  body: '',
  timestamp,
  expiration: timestamp + 180,
});

const authTyped = (message: Record<string, unknown>): TypedData => ({
  types: {
    StarkNetDomain: [
      { name: 'name', type: 'felt' },
      { name: 'chainId', type: 'felt' },
      { name: 'version', type: 'felt' },
    ],
    ...AUTH_TYPES,
  },
  primaryType: 'Request',
  domain: { name: 'Paradex', chainId: SYSTEM_CONFIG.starknet_chain_id, version: 1 },
  message,
});

describe('Paradex signatures: SNIP-12 revision 0', () => {
  it("hashes the published Mail example's domain and message as starknet.js does", () => {
    expect(`0x${structHash(MAIL.types, 'StarkNetDomain', MAIL.domain).toString(16)}`).toBe(
      '0x54833b121883a3e3aebff48ec08a962f5742e5f7b973469c1f8f4f55d470b07',
    );
    expect(`0x${messageHash(MAIL, MAIL_ACCOUNT).toString(16)}`).toBe(
      '0x6fcff244f63e38b9d88b9e3378d44757710d1b244282b435cb472053c8d78d0',
    );
  });

  it('a changed field changes the hash', () => {
    const changed = { ...MAIL, message: { ...MAIL.message, contents: 'Hello, Bob?' } };
    expect(messageHash(changed, MAIL_ACCOUNT)).not.toBe(messageHash(MAIL, MAIL_ACCOUNT));
  });
});

describe('Paradex signatures: what ccxt 4.5.84 sends', () => {
  it('derives the account address from the stark key as ccxt does', async () => {
    const { account } = await ccxtAccount('address');
    expect(
      paradexAccountAddress(
        account.publicKey,
        SYSTEM_CONFIG.paraclear_account_hash,
        SYSTEM_CONFIG.paraclear_account_proxy_hash,
      ),
    ).toBe(`0x${BigInt(account.address).toString(16)}`);
  });

  it("accepts ccxt's auth signature, and refuses it for a changed field or another key", async () => {
    const { exchange, account } = await ccxtAccount('auth');
    const message = authRequest(1_795_000_000);
    const domain = { name: 'Paradex', chainId: SYSTEM_CONFIG.starknet_chain_id, version: 1 };
    const ccxtHash = exchange.starknetEncodeStructuredData(
      domain,
      AUTH_TYPES,
      message,
      account.address,
    );
    const signature = JSON.parse(exchange.starknetSign(ccxtHash, account.privateKey)) as [
      string,
      string,
    ];

    const hash = messageHash(authTyped(message), account.address);
    expect(hash).toBe(BigInt(ccxtHash));
    expect(verifyStarkSignature(signature, hash, account.publicKey)).toBe(true);

    const later = messageHash(
      authTyped({ ...message, expiration: message.expiration + 1 }),
      account.address,
    );
    expect(verifyStarkSignature(signature, later, account.publicKey)).toBe(false);
    const other = await ccxtAccount('other');
    expect(verifyStarkSignature(signature, hash, other.account.publicKey)).toBe(false);
    expect(verifyStarkSignature(['1', '2'], hash, account.publicKey)).toBe(false);
  });
});
