import { getStarkKey } from '@scure/starknet';
import { keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  CcxtVenueClient,
  LIVE_BATCH_VENUES,
  createCcxtExchange,
  longestRequestLifeMs,
  type CcxtExchangeLike,
  type ConformanceSetup,
  type LiveCredentials,
} from '@sts/venues';
import { asterLiveCredentials } from '../dialects/aster/aster-api-wallets';
import type { Profile } from '../dialects/dialect-profiles';
import { DIALECT_TIMINGS } from '../dialects/dialect-readings';
import type { LimitAdjustment } from '../dialects/published-limits';
import { startVenueSim, type RunningVenueSim } from '../sim-server';
import { lighterTestApiKey, lighterTestSignerFiles } from './lighter-test-signer-files';
import { simDriver, type RateLimitKnob } from './paper-harness';
import { SimControl } from './sim-control';

/**
 * The pool the rate-limit case's burst of `openOrders()` (no symbol, as the
 * case reads) fills on each dialect, and what one such read weighs there:
 * Hyperliquid `frontendOpenOrders` 20 of H1; Aster `openOrders` without a
 * symbol 40 of A1; Paradex `GET /orders`, one of P5's 600 a minute; Extended
 * `GET /user/orders`, one of E1; Lighter one `accountActiveOrders` (300 of
 * L1) per market, five markets (docs/venues/rate-limits.md).
 */
const BURST_POOLS: Readonly<Record<string, { pool: string; weight: number }>> = {
  hyperliquid: { pool: 'H1', weight: 20 },
  aster: { pool: 'A1', weight: 40 },
  paradex: { pool: 'P5/1m', weight: 1 },
  extended: { pool: 'E1', weight: 1 },
  lighter: { pool: 'L1', weight: 5 * 300 },
};

/**
 * The suite's own pace on the venues whose published limits it outruns. It
 * runs its cases back to back, each reading what it just did, and the
 * afterEach reads every open order: measured (`max_window_weight`) about
 * 1,400 of Hyperliquid's 1,200 weight a minute (H1), and about 24,000 of
 * Lighter's 24,000 a minute (L1: an `openOrders()` without a symbol is five
 * reads of 300). Those two run with their capacities doubled; every other
 * dialect keeps its venue's numbers (the suite peaks at about a third of
 * Aster's A1, a tenth of Extended's E1 and Paradex's P6).
 */
const SUITE_LIMITS: Readonly<Record<string, LimitAdjustment>> = {
  hyperliquid: { scale: 2 },
  lighter: { scale: 2 },
};

/**
 * The suite's hold under `order_queue=held`: 300 ms (Lighter's default, a
 * Standard account's taker latency) on every venue. It outlasts the live
 * client's first reads of a queued order (Paradex's in the first 160 ms,
 * Extended's at 250 ms), so each placement is still read queued, and keeps
 * the held profiles' runs short: at the dialects' default second, every
 * placement of the suite waits a second (measured, the cases' time: Paradex's
 * held run 36 s against 19 s unheld, 24 s at 300 ms; Extended's 27 s against
 * 12 s, 16 s at 300 ms).
 */
const SUITE_QUEUE_HOLD_MS = 300;

/**
 * The 429 case's knob on a dialect: the pool its burst fills gets a
 * one-second window holding `perSecond` of the burst's reads (every other
 * pool keeps the suite's numbers); restoring puts the suite's numbers back.
 */
const publishedRateLimit = (control: SimControl, venue: string): RateLimitKnob => ({
  set: async (perSecond) => {
    const { pool, weight } = BURST_POOLS[venue];
    await control.setDialectRateLimits(venue, {
      ...SUITE_LIMITS[venue],
      pools: { [pool]: { capacity: perSecond * weight, windowMs: 1_000 } },
    });
  },
  restore: async () => {
    await control.setDialectRateLimits(venue, SUITE_LIMITS[venue] ?? {});
  },
});
/**
 * ccxt's answer timeout for the suite's clients, so a held answer is lost
 * within seconds. Not one: on a loaded machine (CI, six spec files at once)
 * an ordinary placement on Paradex's dialect took longer than a second to
 * answer and its case failed on the timeout.
 */
export const REQUEST_TIMEOUT_MS = 2_500;
/**
 * The timeout of the rate-limit case's client: its burst of requests is
 * answered 429 or served, never held, and a loaded machine may take more than
 * a second to answer the last of two hundred (CI saw a timeout there).
 */
const BURST_TIMEOUT_MS = 15_000;
/**
 * A lost answer's hold: past the longest life of the suite client's requests
 * on the venue (its timeout where the request's own expiry bounds it, as
 * the live client's rules say: Aster's 10 s nonce window, Paradex's
 * whole-second signature timestamp), so a request lost before the venue
 * reaches it expired, and within a second of its settlesByMs.
 */
const holdMs = (venue: string): number =>
  (longestRequestLifeMs(venue, REQUEST_TIMEOUT_MS) ?? REQUEST_TIMEOUT_MS) + 500;
/**
 * What the live client's order requests let the lost-answer cases prove
 * (libs/venues/src/ccxt/order-expiry.ts): every case where placements and
 * cancels carry an expiry the venue enforces; Paradex's cancels carry none,
 * so a lost cancel is not settled in a test's time there. Elsewhere
 * (Extended: no request expiry; Lighter: ccxt's signer signs the
 * transaction's for 10 minutes) a request lost before the venue settles only
 * after the fallback bound of a minute (`UNBOUNDED_REQUEST_SETTLE_MS`): only
 * the cases whose request executed run.
 */
const LOST_ANSWERS: Record<string, 'placements' | true> = {
  hyperliquid: true,
  aster: true,
  paradex: 'placements',
};
const DEPOSIT = '1000000';

/** A wallet of the harness: a private key derived from a label, and its address. */
export function harnessWallet(label: string): { privateKey: `0x${string}`; address: string } {
  const privateKey = keccak256(toHex(`sts-live-harness:${label}`));
  return { privateKey, address: privateKeyToAccount(privateKey).address.toLowerCase() };
}

/** What the live client gets for a wallet the harness funded: ccxt's own credential fields. */
export function harnessCredentials(label: string): LiveCredentials {
  const wallet = harnessWallet(label);
  return { walletAddress: wallet.address, privateKey: wallet.privateKey };
}

/**
 * What a new account does on the venue before it trades, as its owner would:
 * a deposit to the wallet; on Paradex also the onboarding of the StarkNet
 * account ccxt derives from the wallet's key (the simulator keys a Paradex
 * account by the wallet that onboarded it).
 */
export async function openLiveAccount(
  venue: string,
  exchange: CcxtExchangeLike,
  control: SimControl,
  wallet: string,
): Promise<void> {
  await control.deposit(venue, wallet, DEPOSIT);
  if (venue === 'paradex') {
    await (exchange as unknown as { onboarding(): Promise<unknown> }).onboarding();
  }
}

/** A stark private key of the harness for a label (below the curve's order). */
export function harnessStarkKey(label: string): string {
  return `0x${(BigInt(keccak256(toHex(`sts-live-harness-stark:${label}`))) % 2n ** 250n).toString(16)}`;
}

/**
 * What the live client is given for a harness wallet on a venue: the wallet
 * and its key; on Extended an API key the venue issued for the wallet's
 * account and the account's stark key (as its owner gets them from the app).
 */
export async function liveAccountCredentials(
  venue: string,
  simUrl: string,
  label: string,
): Promise<LiveCredentials> {
  const wallet = harnessCredentials(label);
  if (venue === 'aster') {
    return asterLiveCredentials(simUrl, label, harnessWallet(label));
  }
  if (venue === 'lighter') {
    return lighterApiKeyCredentials(simUrl, wallet.walletAddress!, label);
  }
  if (venue !== 'extended') {
    return wallet;
  }
  const starkPrivateKey = harnessStarkKey(label);
  const apiKey = await issueExtendedApiKey(simUrl, wallet.walletAddress!, starkPrivateKey);
  return { ...wallet, apiKey, secret: starkPrivateKey, privateKey: starkPrivateKey };
}

/** Lighter's API key index the harness registers (ccxt takes 4 to 254). */
const LIGHTER_API_KEY_INDEX = 4;

/**
 * A Lighter account's API key, registered on the simulated venue for a
 * wallet as its owner does once (a ChangePubKey signed with the wallet), and
 * the credential the service stores for it: `<account index>:<API key
 * index>` and the API key's private key.
 */
export async function lighterApiKeyCredentials(
  simUrl: string,
  wallet: string,
  label: string,
): Promise<LiveCredentials> {
  const key = lighterTestApiKey(label);
  const response = await fetch(`${simUrl}/dialects/lighter/_sim/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      l1_address: wallet,
      api_key_index: LIGHTER_API_KEY_INDEX,
      public_key: key.publicKey,
    }),
  });
  if (!response.ok) {
    throw new Error(`lighter api key: HTTP ${response.status}`);
  }
  const { account_index } = (await response.json()) as { account_index: number };
  return {
    walletAddress: wallet,
    apiKey: `${account_index}:${LIGHTER_API_KEY_INDEX}`,
    secret: key.privateKey,
  };
}

/**
 * A ccxt instance of the harness wallet `label` on `venue`, pointed at the
 * dialect, its answers awaited as long as the conformance suite's clients
 * wait (1 s was too short for Paradex's onboarding signature check on a
 * machine running six spec files at once).
 */
export async function liveHarnessExchange(
  venue: string,
  simUrl: string,
  label: string,
): Promise<CcxtExchangeLike> {
  const credentials = await liveAccountCredentials(venue, simUrl, label);
  const made = await createCcxtExchange(venue, credentials, {
    endpoint: `${simUrl}/dialects/${venue}`,
    ...liveTestOptions(venue),
  });
  (made as { timeout?: number }).timeout = REQUEST_TIMEOUT_MS;
  return made;
}

/** ccxt options a venue's live client needs in tests: Lighter's stand-in signer. */
export const liveTestOptions = (venue: string): { options?: Record<string, unknown> } =>
  venue === 'lighter' ? { options: lighterTestSignerFiles() } : {};

/** An API key the simulated Extended issues for a wallet's account with this stark key. */
export async function issueExtendedApiKey(
  simUrl: string,
  wallet: string,
  starkPrivateKey: string,
): Promise<string> {
  const response = await fetch(`${simUrl}/dialects/extended/_sim/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ wallet, stark_key: getStarkKey(starkPrivateKey) }),
  });
  if (!response.ok) {
    throw new Error(`extended api key: HTTP ${response.status}`);
  }
  return ((await response.json()) as { api_key: string }).api_key;
}

/**
 * Onboards on the simulated Paradex the StarkNet account ccxt derives from
 * an Ethereum wallet's key, as its owner does once on the venue before
 * trading (the service itself never onboards). Other venues need nothing.
 */
export async function onboardLiveWallet(
  venue: string,
  simUrl: string,
  credentials: { walletAddress: string; privateKey: string },
): Promise<void> {
  if (venue !== 'paradex') {
    return;
  }
  const exchange = await createCcxtExchange(venue, credentials, {
    endpoint: `${simUrl}/dialects/${venue}`,
  });
  try {
    await (exchange as unknown as { onboarding(): Promise<unknown> }).onboarding();
  } finally {
    await exchange.close();
  }
}

/**
 * The conformance harness of the live path: a private simulator in manual
 * time, and clients that are the live client itself (`CcxtVenueClient` over
 * the unmodified ccxt pro class built by `createCcxtExchange`, integrator
 * fees off) with only `urls.api` pointed at the venue's dialect. Each account
 * label is a wallet of its own, funded through the simulator's deposits.
 *
 * Lost answers: every case where the venue lets the client's requests expire
 * (`LOST_ANSWERS`); the one-request replace case never (the live client
 * replaces with a cancel and a placement, each covered by its own case).
 */
export function liveConformanceSetup(
  venue: string,
  symbol: string,
  seed: number,
  profile: Profile = {},
): ConformanceSetup {
  let sim: RunningVenueSim | undefined;
  return {
    capabilities: {
      trade: true,
      dropStream: true,
      rateLimit: true,
      loseAnswer: LOST_ANSWERS[venue] ?? 'after',
      replaceInTwoRequests: true,
      // Lighter keeps a 48-bit integer of our 128-bit client order id: its trade and kind.
      idsFromTheVenue: venue === 'lighter' ? 'partial' : 'whole',
      // Where the live client sends the venue's batches (Lighter's are not sent yet; Extended has none).
      batch: LIVE_BATCH_VENUES.has(venue),
    },
    start: async () => {
      // The dialect enforces its venue's published limits (SUITE_LIMITS aside) throughout.
      const running = await startVenueSim({
        seed,
        tickMs: 0,
        dialectProfiles: { [venue]: profile },
        dialectRateLimits: SUITE_LIMITS[venue] ? { [venue]: SUITE_LIMITS[venue] } : {},
        dialectTimings: DIALECT_TIMINGS.get(venue)?.queue_hold_ms
          ? { [venue]: { queue_hold_ms: SUITE_QUEUE_HOLD_MS } }
          : {},
      });
      sim = running;
      const control = new SimControl(running.url);
      const endpoint = `${running.url}/dialects/${venue}`;
      return {
        symbol,
        createClient: async (account) => {
          const label = `${venue}:${seed}:${account}`;
          const credentials = await liveAccountCredentials(venue, running.url, label);
          const exchange = await createCcxtExchange(venue, credentials, {
            endpoint,
            ...liveTestOptions(venue),
          });
          await openLiveAccount(venue, exchange, control, harnessWallet(label).address);
          (exchange as { timeout?: number }).timeout =
            account === 'rate-limit' ? BURST_TIMEOUT_MS : REQUEST_TIMEOUT_MS;
          const client = new CcxtVenueClient({ venue, exchange });
          await client.connect();
          return client;
        },
        driver: simDriver(control, venue, holdMs(venue), publishedRateLimit(control, venue)),
      };
    },
    stop: async () => {
      await sim?.stop();
    },
  };
}
