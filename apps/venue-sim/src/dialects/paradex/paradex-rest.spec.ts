import { keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createCcxtExchange } from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { SimControl } from '../../testing/sim-control';

// The Paradex dialect's accounts as ccxt 4.5.84 meets them: markets, the
// onboarding that registers a stark key, the signed auth that issues a bearer
// token, and the account reads behind it.

interface ParadexCcxt {
  loadMarkets(): Promise<Record<string, { id: string }>>;
  retrieveAccount(): Promise<{ address: string; publicKey: string }>;
  onboarding(): Promise<unknown>;
  fetchBalance(): Promise<Record<string, { total?: number }>>;
  fetchPositions(): Promise<unknown[]>;
  options: Record<string, unknown>;
  close(): Promise<void>;
}

let sim: RunningVenueSim;
let control: SimControl;

beforeAll(async () => {
  sim = await startVenueSim({ seed: 5, tickMs: 0, rateLimits: { paradex: 1000 } });
  control = new SimControl(sim.url);
});

afterAll(async () => {
  await sim.stop();
});

const keyOf = (label: string) => keccak256(toHex(`paradex-rest-spec:${label}`));
const walletOf = (label: string) => privateKeyToAccount(keyOf(label)).address.toLowerCase();

async function trader(label: string): Promise<ParadexCcxt> {
  const privateKey = keyOf(label);
  return (await createCcxtExchange(
    'paradex',
    { privateKey, walletAddress: privateKeyToAccount(privateKey).address },
    { endpoint: `${sim.url}/dialects/paradex` },
  )) as unknown as ParadexCcxt;
}

async function thrown(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return `${(error as Error).constructor.name}: ${(error as Error).message}`;
  }
  throw new Error('expected the call to throw');
}

describe('Paradex dialect: accounts', () => {
  it("lists the venue's perpetuals as ccxt reads them", async () => {
    const exchange = await trader('markets');
    try {
      const markets = await exchange.loadMarkets();
      expect(markets['BTC/USD:USDC']?.id).toBe('BTC-USD-PERP');
      expect(Object.keys(markets)).toHaveLength(4);
    } finally {
      await exchange.close();
    }
  });

  it("refuses auth before onboarding, then serves the account (its wallet's deposits) once its stark key is onboarded", async () => {
    const exchange = await trader('onboarded');
    try {
      expect(await thrown(exchange.fetchBalance())).toMatch(/NOT_ONBOARDED/);
      await exchange.onboarding();
      await control.deposit('paradex', walletOf('onboarded'), '2500');
      const balance = await exchange.fetchBalance();
      expect(balance['USDC']?.total).toBe(2500);
      expect(await exchange.fetchPositions()).toEqual([]);
    } finally {
      await exchange.close();
    }
  });

  it('refuses an auth signed by a key other than the onboarded one', async () => {
    const owner = await trader('owner');
    const intruder = await trader('intruder');
    try {
      const account = await owner.retrieveAccount();
      await owner.onboarding();
      // The intruder signs for the owner's account with its own key.
      const own = await intruder.retrieveAccount();
      intruder.options['paradexAccount'] = { ...own, address: account.address };
      expect(await thrown(intruder.fetchBalance())).toMatch(
        /STARKNET_SIGNATURE_VERIFICATION_FAILED/,
      );
    } finally {
      await owner.close();
      await intruder.close();
    }
  });

  it('refuses an onboarding whose account is not the one its key derives', async () => {
    const exchange = await trader('wrong-address');
    try {
      const account = await exchange.retrieveAccount();
      exchange.options['paradexAccount'] = { ...account, address: '0x1234' };
      expect(await thrown(exchange.onboarding())).toMatch(/INVALID_STARKNET_ADDRESS/);
    } finally {
      await exchange.close();
    }
  });
});
