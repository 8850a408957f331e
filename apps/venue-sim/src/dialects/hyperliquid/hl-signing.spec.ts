import { pro } from 'ccxt';
import { privateKeyToAccount } from 'viem/accounts';
import { HlNonceError, HlNonces } from './hl-nonces';
import {
  HlSignatureError,
  isUserSignedAction,
  l1ActionHash,
  recoverL1ActionSigner,
  recoverUserSignedActionSigner,
  venueText,
} from './hl-signing';
import type { HlSignature } from './hl-signing';
import { signL1, signUserSigned } from './hl-test-kit';

// Known answers: the official Python SDK's published vectors
// (hyperliquid-dex/hyperliquid-python-sdk, tests/signing_test.py), payloads
// built by ccxt 4.5.84 itself (offline: its request builders and signers are
// synchronous, and its one transport method is stubbed), and the venue's
// refusals. Every expected address is the one of a known private key.

const SDK_KEY = '0x0123456789012345678901234567890123456789012345678901234567890123';
const OTHER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const sdkWallet = privateKeyToAccount(SDK_KEY);
const SDK_SIGNER = sdkWallet.address.toLowerCase();
const otherWallet = privateKeyToAccount(OTHER_KEY);
const VAULT = '0x1719884eb866cb12b2287399b15f7db5e7d775ea';
const DAY_MS = 86_400_000;

interface PublishedL1Vector {
  name: string;
  action: Record<string, unknown>;
  vaultAddress?: string;
  mainnet: HlSignature;
  testnet: HlSignature;
}

const ethOrder = (order: Record<string, unknown>): Record<string, unknown> => ({
  type: 'order',
  orders: [{ a: 1, b: true, p: '100', s: '100', r: false, ...order }],
  grouping: 'na',
});

// The SDK's r and s are printed without leading zeros, as its to_hex writes them.
const PUBLISHED_L1: PublishedL1Vector[] = [
  {
    name: 'dummy action',
    action: { type: 'dummy', num: 100_000_000_000 },
    mainnet: {
      r: '0x53749d5b30552aeb2fca34b530185976545bb22d0b3ce6f62e31be961a59298',
      s: '0x755c40ba9bf05223521753995abb2f73ab3229be8ec921f350cb447e384d8ed8',
      v: 27,
    },
    testnet: {
      r: '0x542af61ef1f429707e3c76c5293c80d01f74ef853e34b76efffcb57e574f9510',
      s: '0x17b8b32f086e8cdede991f1e2c529f5dd5297cbe8128500e00cbaf766204a613',
      v: 28,
    },
  },
  {
    name: 'GTC order',
    action: ethOrder({ t: { limit: { tif: 'Gtc' } } }),
    mainnet: {
      r: '0xd65369825a9df5d80099e513cce430311d7d26ddf477f5b3a33d2806b100d78e',
      s: '0x2b54116ff64054968aa237c20ca9ff68000f977c93289157748a3162b6ea940e',
      v: 28,
    },
    testnet: {
      r: '0x82b2ba28e76b3d761093aaded1b1cdad4960b3af30212b343fb2e6cdfa4e3d54',
      s: '0x6b53878fc99d26047f4d7e8c90eb98955a109f44209163f52d8dc4278cbbd9f5',
      v: 27,
    },
  },
  {
    name: 'GTC order with a cloid',
    action: ethOrder({ t: { limit: { tif: 'Gtc' } }, c: '0x00000000000000000000000000000001' }),
    mainnet: {
      r: '0x41ae18e8239a56cacbc5dad94d45d0b747e5da11ad564077fcac71277a946e3',
      s: '0x3c61f667e747404fe7eea8f90ab0e76cc12ce60270438b2058324681a00116da',
      v: 27,
    },
    testnet: {
      r: '0xeba0664bed2676fc4e5a743bf89e5c7501aa6d870bdb9446e122c9466c5cd16d',
      s: '0x7f3e74825c9114bc59086f1eebea2928c190fdfbfde144827cb02b85bbe90988',
      v: 28,
    },
  },
  {
    name: 'dummy action for a vault',
    action: { type: 'dummy', num: 100_000_000_000 },
    vaultAddress: VAULT,
    mainnet: {
      r: '0x3c548db75e479f8012acf3000ca3a6b05606bc2ec0c29c50c515066a326239',
      s: '0x4d402be7396ce74fbba3795769cda45aec00dc3125a984f2a9f23177b190da2c',
      v: 28,
    },
    testnet: {
      r: '0xe281d2fb5c6e25ca01601f878e4d69c965bb598b88fac58e475dd1f5e56c362b',
      s: '0x7ddad27e9a238d045c035bc606349d075d5c5cd00a6cd1da23ab5c39d4ef0f60',
      v: 27,
    },
  },
  {
    name: 'stop-loss trigger order',
    action: ethOrder({ t: { trigger: { isMarket: true, triggerPx: '103', tpsl: 'sl' } } }),
    mainnet: {
      r: '0x98343f2b5ae8e26bb2587daad3863bc70d8792b09af1841b6fdd530a2065a3f9',
      s: '0x6b5bb6bb0633b710aa22b721dd9dee6d083646a5f8e581a20b545be6c1feb405',
      v: 27,
    },
    testnet: {
      r: '0x971c554d917c44e0e1b6cc45d8f9404f32172a9d3b3566262347d0302896a2e4',
      s: '0x206257b104788f80450f8e786c329daa589aa0b32ba96948201ae556d5637eac',
      v: 28,
    },
  },
  {
    name: 'createSubAccount',
    action: { type: 'createSubAccount', name: 'example' },
    mainnet: {
      r: '0x51096fe3239421d16b671e192f574ae24ae14329099b6db28e479b86cdd6caa7',
      s: '0xb71f7d293af92d3772572afb8b102d167a7cef7473388286bc01f52a5c5b423',
      v: 27,
    },
    testnet: {
      r: '0xa699e3ed5c2b89628c746d3298b5dc1cca604694c2c855da8bb8250ec8014a5b',
      s: '0x53f1b8153a301c72ecc655b1c315d64e1dcea3ee58921fd7507e35818fcc1584',
      v: 28,
    },
  },
  {
    name: 'subAccountTransfer',
    action: {
      type: 'subAccountTransfer',
      subAccountUser: '0x1d9470d4b963f552e6f671a81619d395877bf409',
      isDeposit: true,
      usd: 10,
    },
    mainnet: {
      r: '0x43592d7c6c7d816ece2e206f174be61249d651944932b13343f4d13f306ae602',
      s: '0x71a926cb5c9a7c01c3359ec4c4c34c16ff8107d610994d4de0e6430e5cc0f4c9',
      v: 28,
    },
    testnet: {
      r: '0xe26574013395ad55ee2f4e0575310f003c5bb3351b5425482e2969fa51543927',
      s: '0xefb08999196366871f919fd0e138b3a7f30ee33e678df7cfaf203e25f0a4278',
      v: 28,
    },
  },
  {
    name: 'scheduleCancel without a time',
    action: { type: 'scheduleCancel' },
    mainnet: {
      r: '0x6cdfb286702f5917e76cd9b3b8bf678fcc49aec194c02a73e6d4f16891195df9',
      s: '0x6557ac307fa05d25b8d61f21fb8a938e703b3d9bf575f6717ba21ec61261b2a0',
      v: 27,
    },
    testnet: {
      r: '0xc75bb195c3f6a4e06b7d395acc20bbb224f6d23ccff7c6a26d327304e6efaeed',
      s: '0x342f8ede109a29f2c0723bd5efb9e9100e3bbb493f8fb5164ee3d385908233df',
      v: 28,
    },
  },
  {
    name: 'scheduleCancel with a time',
    action: { type: 'scheduleCancel', time: 123456789 },
    mainnet: {
      r: '0x609cb20c737945d070716dcc696ba030e9976fcf5edad87afa7d877493109d55',
      s: '0x16c685d63b5c7a04512d73f183b3d7a00da5406ff1f8aad33f8ae2163bab758b',
      v: 28,
    },
    testnet: {
      r: '0x4e4f2dbd4107c69783e251b7e1057d9f2b9d11cee213441ccfa2be63516dc5bc',
      s: '0x706c656b23428c8ba356d68db207e11139ede1670481a9e01ae2dfcdb0e1a678',
      v: 27,
    },
  },
];

interface PublishedUserSignedVector {
  name: string;
  action: Record<string, unknown>;
  primaryType: string;
  signature: HlSignature;
}

// The SDK signs these for testnet: it sets hyperliquidChain "Testnet" and
// signatureChainId "0x66eee" on the action before signing.
const transferTypes = [
  { name: 'hyperliquidChain', type: 'string' },
  { name: 'destination', type: 'string' },
  { name: 'amount', type: 'string' },
  { name: 'time', type: 'uint64' },
];
const PUBLISHED_USER_SIGNED: PublishedUserSignedVector[] = [
  {
    name: 'usdSend',
    action: {
      type: 'usdSend',
      signatureChainId: '0x66eee',
      hyperliquidChain: 'Testnet',
      destination: '0x5e9ee1089755c3435139848e47e6635505d5a13a',
      amount: '1',
      time: 1687816341423,
    },
    primaryType: 'HyperliquidTransaction:UsdSend',
    signature: {
      r: '0x637b37dd731507cdd24f46532ca8ba6eec616952c56218baeff04144e4a77073',
      s: '0x11a6a24900e6e314136d2592e2f8d502cd89b7c15b198e1bee043c9589f9fad7',
      v: 27,
    },
  },
  {
    name: 'withdraw3',
    action: {
      type: 'withdraw3',
      signatureChainId: '0x66eee',
      hyperliquidChain: 'Testnet',
      destination: '0x5e9ee1089755c3435139848e47e6635505d5a13a',
      amount: '1',
      time: 1687816341423,
    },
    primaryType: 'HyperliquidTransaction:Withdraw',
    signature: {
      r: '0x8363524c799e90ce9bc41022f7c39b4e9bdba786e5f9c72b20e43e1462c37cf9',
      s: '0x58b1411a775938b83e29182e8ef74975f9054c8e97ebf5ec2dc8d51bfc893881',
      v: 28,
    },
  },
];

/** Same signature whatever the zero-padding of r and s. */
const sameSignature = (actual: HlSignature, expected: HlSignature): void => {
  expect({ r: BigInt(actual.r), s: BigInt(actual.s), v: actual.v }).toEqual({
    r: BigInt(expected.r),
    s: BigInt(expected.s),
    v: expected.v,
  });
};

/** What arrives at the dialect: the body as JSON text, parsed. */
const overTheWire = <T>(body: T): T => JSON.parse(JSON.stringify(body)) as T;

describe('Hyperliquid signatures: the official SDK vectors', () => {
  it('hashes an L1 action as the SDK does (its phantom-agent connectionId)', () => {
    const iocOrder = {
      type: 'order',
      orders: [{ a: 4, b: true, p: '1670.1', s: '0.0147', r: false, t: { limit: { tif: 'Ioc' } } }],
      grouping: 'na',
    };

    expect(l1ActionHash(iocOrder, 1677777606040)).toBe(
      '0x0fcbeda5ae3c4950a548021552a4fea2226858c4453571bf3f24ba017eac2908',
    );
  });

  describe.each(PUBLISHED_L1)('L1 action: $name', (vector) => {
    it.each([
      ['mainnet', true],
      ['testnet', false],
    ] as const)('recovers the SDK key from its %s signature', async (network, isMainnet) => {
      const signer = await recoverL1ActionSigner({
        action: overTheWire(vector.action),
        nonce: 0,
        vaultAddress: vector.vaultAddress,
        signature: vector[network],
        isMainnet,
      });

      expect(signer).toBe(SDK_SIGNER);
    });

    it.each([
      ['mainnet', true],
      ['testnet', false],
    ] as const)(
      'signing with viem reproduces the published %s r/s/v',
      async (network, isMainnet) => {
        const signature = await signL1(sdkWallet, vector.action, 0, {
          vaultAddress: vector.vaultAddress,
          isMainnet,
        });

        sameSignature(signature, vector[network]);
      },
    );
  });

  describe.each(PUBLISHED_USER_SIGNED)('user-signed action: $name', (vector) => {
    it('recovers the SDK key from its signature', async () => {
      const signer = await recoverUserSignedActionSigner({
        action: overTheWire(vector.action),
        signature: vector.signature,
      });

      expect(signer).toBe(SDK_SIGNER);
    });

    it('signing with viem reproduces the published r/s/v', async () => {
      const signature = await signUserSigned(
        sdkWallet,
        vector.primaryType,
        transferTypes,
        vector.action,
      );

      sameSignature(signature, vector.signature);
    });
  });
});

describe('Hyperliquid signatures: payloads ccxt builds', () => {
  const ccxtClient = (): InstanceType<typeof pro.hyperliquid> => {
    const client = new pro.hyperliquid({ privateKey: SDK_KEY, walletAddress: sdkWallet.address });
    client.setMarkets([
      {
        id: 'SOL',
        symbol: 'SOL/USDC:USDC',
        base: 'SOL',
        quote: 'USDC',
        settle: 'USDC',
        baseId: '5',
        quoteId: 'USDC',
        settleId: 'USDC',
        type: 'swap',
        spot: false,
        swap: true,
        contract: true,
        linear: true,
        active: true,
        precision: { amount: 0.01, price: 0.001 },
        limits: {},
        info: {},
      },
    ]);
    return client;
  };

  /** ccxt's one transport call, replaced so its async builders post nowhere; returns what they sent. */
  const captureExchangePost = (
    client: InstanceType<typeof pro.hyperliquid>,
  ): (() => Record<string, unknown>) => {
    const sent: Record<string, unknown>[] = [];
    Object.assign(client, {
      privatePostExchange: (request: Record<string, unknown>) => {
        sent.push(overTheWire(request));
        return Promise.resolve({ status: 'ok', response: { type: 'default' } });
      },
    });
    return () => {
      expect(sent).toHaveLength(1);
      return sent[0];
    };
  };

  const postOnlyBuy = {
    symbol: 'SOL/USDC:USDC',
    type: 'limit',
    side: 'buy',
    amount: 1.5,
    price: 142.35,
    params: { postOnly: true, clientOrderId: '0x0000000000000000000000000000abcd' },
  };

  it('recovers the signer of a post-only order for a vault (ccxt sends the vault without 0x)', async () => {
    const body = overTheWire(
      ccxtClient().createOrdersRequest([postOnlyBuy], { vaultAddress: VAULT }),
    );
    expect(body.vaultAddress).toBe(VAULT.slice(2));

    const signer = await recoverL1ActionSigner({
      action: body.action,
      nonce: body.nonce as number,
      signature: body.signature as HlSignature,
      vaultAddress: body.vaultAddress as string,
    });

    expect(signer).toBe(SDK_SIGNER);
  });

  it('recovers the signer of a cancel', async () => {
    const body = overTheWire(ccxtClient().cancelOrdersRequest(['123'], 'SOL/USDC:USDC'));

    const signer = await recoverL1ActionSigner({
      action: body.action,
      nonce: body.nonce as number,
      signature: body.signature as HlSignature,
    });

    expect(signer).toBe(SDK_SIGNER);
  });

  it('recovers the signer of an action signed with expiresAfter, only with expiresAfter', async () => {
    // ccxt writes the nonce as "00000" + hex, so it needs the 11 hex digits of a real ms timestamp.
    const nonce = 1_795_475_057_750;
    const expiresAfter = nonce + 60_000;
    const action = { type: 'scheduleCancel', time: nonce + 10_000 };
    const signature = ccxtClient().signL1Action(
      action,
      nonce,
      undefined,
      expiresAfter,
    ) as HlSignature;

    await expect(recoverL1ActionSigner({ action, nonce, signature, expiresAfter })).resolves.toBe(
      SDK_SIGNER,
    );
    await expect(recoverL1ActionSigner({ action, nonce, signature })).resolves.not.toBe(SDK_SIGNER);
  });

  it('recovers the signer of approveBuilderFee', async () => {
    const client = ccxtClient();
    const sent = captureExchangePost(client);
    await client.approveBuilderFee('0x6530512A6c89C7cfCEbC3BA7fcD9aDa5f30827a6', '0.01%');
    const body = sent();

    expect(isUserSignedAction((body.action as Record<string, unknown>).type)).toBe(true);
    await expect(
      recoverUserSignedActionSigner({
        action: body.action as Record<string, unknown>,
        signature: body.signature as HlSignature,
      }),
    ).resolves.toBe(SDK_SIGNER);
  });

  it('recovers the signer of a withdrawal (withdraw3)', async () => {
    const client = ccxtClient();
    const sent = captureExchangePost(client);
    await client.withdraw('USDC', 25, '0x5e9ee1089755c3435139848e47e6635505d5a13a');
    const body = sent();

    await expect(
      recoverUserSignedActionSigner({
        action: body.action as Record<string, unknown>,
        signature: body.signature as HlSignature,
      }),
    ).resolves.toBe(SDK_SIGNER);
  });

  it('recovers the signer of a spot-to-perp transfer (usdClassTransfer)', async () => {
    const client = ccxtClient();
    const sent = captureExchangePost(client);
    await client.transfer('USDC', 10, 'spot', 'swap');
    const body = sent();

    await expect(
      recoverUserSignedActionSigner({
        action: body.action as Record<string, unknown>,
        signature: body.signature as HlSignature,
      }),
    ).resolves.toBe(SDK_SIGNER);
  });

  it.each([
    [
      'userSetAbstraction',
      (client: InstanceType<typeof pro.hyperliquid>) => client.setUserAbstraction('unifiedAccount'),
    ],
    [
      'userDexAbstraction',
      (client: InstanceType<typeof pro.hyperliquid>) => client.enableUserDexAbstraction(true),
    ],
  ])('recovers the signer of %s', async (actionType, send) => {
    const client = ccxtClient();
    const sent = captureExchangePost(client);
    await send(client);
    const action = sent().action as Record<string, unknown>;

    expect(action.type).toBe(actionType);
    await expect(
      recoverUserSignedActionSigner({ action, signature: sent().signature as HlSignature }),
    ).resolves.toBe(SDK_SIGNER);
  });

  it('recovers the signer of a usdSend signed by ccxt', async () => {
    const payload = {
      hyperliquidChain: 'Mainnet',
      destination: '0x5e9ee1089755c3435139848e47e6635505d5a13a',
      amount: '5',
      time: 1_795_475_057_750,
    };
    const signature = ccxtClient().buildUsdSendSig(payload) as unknown as HlSignature;
    const action = { type: 'usdSend', signatureChainId: '0x66eee', ...payload };

    await expect(
      recoverUserSignedActionSigner({ action: overTheWire(action), signature }),
    ).resolves.toBe(SDK_SIGNER);
  });

  it('recovers the signer of setReferrer, an L1 action', async () => {
    const client = ccxtClient();
    const sent = captureExchangePost(client);
    await client.setRef();
    const body = sent();

    expect(isUserSignedAction((body.action as Record<string, unknown>).type)).toBe(false);
    await expect(
      recoverL1ActionSigner({
        action: body.action,
        nonce: body.nonce as number,
        signature: body.signature as HlSignature,
      }),
    ).resolves.toBe(SDK_SIGNER);
  });
});

describe('Hyperliquid signatures: refusals', () => {
  const order = {
    type: 'order',
    orders: [{ a: 5, b: true, p: '142.35', s: '1.5', r: false, t: { limit: { tif: 'Alo' } } }],
    grouping: 'na',
  };
  const nonce = 1_795_475_057_750;
  const ADDRESS = /^0x[0-9a-f]{40}$/;

  it('recovers someone else from an order whose price changed by one digit', async () => {
    const signature = await signL1(sdkWallet, order, nonce);
    const tampered = overTheWire(order);
    tampered.orders[0].p = '142.36';

    await expect(recoverL1ActionSigner({ action: order, nonce, signature })).resolves.toBe(
      SDK_SIGNER,
    );
    const signer = await recoverL1ActionSigner({ action: tampered, nonce, signature });
    expect(signer).toMatch(ADDRESS);
    expect(signer).not.toBe(SDK_SIGNER);
  });

  it('recovers someone else when the nonce, the vault or the network differs from the signed one', async () => {
    const signature = await signL1(sdkWallet, order, nonce);

    for (const changed of [
      { nonce: nonce + 1 },
      { vaultAddress: VAULT },
      { isMainnet: false },
      { expiresAfter: nonce + 60_000 },
    ]) {
      await expect(
        recoverL1ActionSigner({ action: order, nonce, signature, ...changed }),
      ).resolves.not.toBe(SDK_SIGNER);
    }
  });

  it("recovers the other signer from another wallet's signature", async () => {
    const signature = await signL1(otherWallet, order, nonce);

    const signer = await recoverL1ActionSigner({ action: order, nonce, signature });

    expect(signer).toBe(otherWallet.address.toLowerCase());
    expect(signer).not.toBe(SDK_SIGNER);
  });

  it('hashes an action with expiresAfter differently from one without; a null expiresAfter is absent', () => {
    const plain = l1ActionHash(order, nonce);

    expect(l1ActionHash(order, nonce, null, nonce + 60_000)).not.toBe(plain);
    expect(l1ActionHash(order, nonce, null, null)).toBe(plain);
    expect(l1ActionHash(order, nonce, VAULT)).toBe(
      l1ActionHash(order, nonce, VAULT.toUpperCase().replace('0X', '0x')),
    );
  });

  it('recovers someone else from a user-signed action whose amount or chain changed', async () => {
    const [vector] = PUBLISHED_USER_SIGNED;

    for (const changed of [
      { amount: '2' },
      { hyperliquidChain: 'Mainnet' },
      { signatureChainId: '0xa4b1' },
    ]) {
      const signer = await recoverUserSignedActionSigner({
        action: { ...vector.action, ...changed },
        signature: vector.signature,
      });
      expect(signer).toMatch(ADDRESS);
      expect(signer).not.toBe(SDK_SIGNER);
    }
  });

  it('recovers an approveAgent sent without its name, as signed over an empty name', async () => {
    const signed = {
      type: 'approveAgent',
      signatureChainId: '0x66eee',
      hyperliquidChain: 'Mainnet',
      agentAddress: otherWallet.address,
      agentName: '',
      nonce,
    };
    const signature = await signUserSigned(
      sdkWallet,
      'HyperliquidTransaction:ApproveAgent',
      [
        { name: 'hyperliquidChain', type: 'string' },
        { name: 'agentAddress', type: 'address' },
        { name: 'agentName', type: 'string' },
        { name: 'nonce', type: 'uint64' },
      ],
      signed,
    );
    const { agentName: _dropped, ...sent } = signed;

    await expect(recoverUserSignedActionSigner({ action: sent, signature })).resolves.toBe(
      SDK_SIGNER,
    );
    await expect(
      recoverUserSignedActionSigner({ action: { ...sent, agentName: 'bot' }, signature }),
    ).resolves.not.toBe(SDK_SIGNER);
  });

  it.each([
    ['r of zero', { r: '0x0', s: '0x1', v: 27 }],
    ['s beyond the curve order', { r: '0x1', s: `0x${'f'.repeat(64)}`, v: 27 }],
    ['v of 29', { r: '0x1', s: '0x1', v: 29 }],
    ['r not hex', { r: 'zz', s: '0x1', v: 28 }],
  ])('refuses a signature with %s: "Unable to recover signer."', async (_case, signature) => {
    await expect(recoverL1ActionSigner({ action: order, nonce, signature })).rejects.toThrow(
      new HlSignatureError(venueText.unableToRecoverSigner),
    );
  });

  it('refuses an action type it does not sign as a user-signed action, and a mistyped field', async () => {
    const [vector] = PUBLISHED_USER_SIGNED;

    await expect(
      recoverUserSignedActionSigner({ action: order, signature: vector.signature }),
    ).rejects.toBeInstanceOf(HlSignatureError);
    await expect(
      recoverUserSignedActionSigner({
        action: { ...vector.action, time: '1687816341423' },
        signature: vector.signature,
      }),
    ).rejects.toThrow(venueText.cannotDeserialize);
  });

  it('names the recovered address in the unknown-signer text, lower-cased', () => {
    expect(venueText.unknownSigner(otherWallet.address)).toBe(
      `User or API Wallet ${otherWallet.address.toLowerCase()} does not exist.`,
    );
  });
});

describe('Hyperliquid nonces', () => {
  const now = 1_795_475_057_750;
  const signer = SDK_SIGNER;

  it('takes a nonce once per signer: a replay is a duplicate', () => {
    const nonces = new HlNonces();
    nonces.check(signer, now, now);

    expect(() => nonces.check(signer, now, now + 5)).toThrow(
      new HlNonceError(`Invalid nonce: duplicate nonce ${now}`),
    );
    expect(() => nonces.check(signer.toUpperCase().replace('0X', '0x'), now, now)).toThrow(
      HlNonceError,
    );
    expect(() => nonces.check(otherWallet.address, now, now)).not.toThrow();
  });

  it('takes a nonce only within (now - 2 days, now + 1 day)', () => {
    const nonces = new HlNonces();
    const oldest = now - 2 * DAY_MS;
    const newest = now + DAY_MS;

    expect(() => nonces.check(signer, oldest, now)).toThrow(
      new HlNonceError(`Invalid nonce: nonce too low ${oldest} < ${oldest}`),
    );
    expect(() => nonces.check(signer, newest, now)).toThrow(
      new HlNonceError(`Invalid nonce: nonce too high ${newest} > ${newest}`),
    );
    expect(() => nonces.check(signer, oldest + 1, now)).not.toThrow();
    expect(() => nonces.check(signer, newest - 1, now)).not.toThrow();
  });

  it('does not record a refused nonce', () => {
    const nonces = new HlNonces();
    const ahead = now + DAY_MS;
    expect(() => nonces.check(signer, ahead, now)).toThrow(HlNonceError);

    expect(() => nonces.check(signer, ahead, now + 1)).not.toThrow();
  });

  it('keeps the 100 highest: out of order is fine until 100 are held, then a nonce must beat the smallest', () => {
    const nonces = new HlNonces();
    for (let i = 100; i >= 1; i -= 1) {
      nonces.check(signer, now - i * 1000, now);
    }

    expect(() => nonces.check(signer, now - 101_000, now)).toThrow(
      new HlNonceError(`Invalid nonce: nonce too low ${now - 101_000} < ${now - 100_000}`),
    );
    nonces.check(signer, now - 99_500, now);
    expect(() => nonces.check(signer, now - 99_700, now)).toThrow(
      new HlNonceError(`Invalid nonce: nonce too low ${now - 99_700} < ${now - 99_500}`),
    );
    expect(() => nonces.check(signer, now - 50_000, now)).toThrow(
      new HlNonceError(`Invalid nonce: duplicate nonce ${now - 50_000}`),
    );
  });

  it('forgets every signer on clear()', () => {
    const nonces = new HlNonces();
    nonces.check(signer, now, now);
    nonces.clear();

    expect(() => nonces.check(signer, now, now)).not.toThrow();
  });
});
