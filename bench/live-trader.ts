/**
 * A trader of a bench fleet whose venues run live against the simulator's
 * dialects: a wallet whose key the bench knows, onboarded and funded on each
 * venue, with the signing key each venue's live client needs, as the live
 * end-to-end specs open theirs (apps/gateway/test/gateway-harness.ts,
 * `liveTrader`) and `npm start -- --live-dialects` opens the demo wallet's
 * (tools/fleet-live-venues.mjs). Benches run the fleet as processes, so the
 * credentials go in through the operator tool, not the harness.
 */
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  SimControl,
  asterLiveCredentials,
  issueExtendedApiKey,
  lighterApiKeyCredentials,
  onboardLiveWallet,
} from '@sts/app-venue-sim';
import { runOps } from '@sts/operations';
import { tradingKey, type PaperTrader } from './fleet-kit';

/** What every wallet is given on each venue: the simulator starts it empty. */
const DEPOSIT = '1000000';

/** A user with a new wallet, live credentials on `venues` and a key with trades:read and trades:write. */
export async function seedLiveTrader(
  env: Record<string, string>,
  simUrl: string,
  venues: readonly string[],
): Promise<PaperTrader> {
  const privateKey = generatePrivateKey();
  const wallet = privateKeyToAccount(privateKey).address.toLowerCase();
  const user = (await runOps(['users', 'create', '--wallet', wallet], env)).output as {
    user_id: string;
  };
  const control = new SimControl(simUrl);
  for (const venue of venues) {
    await onboardLiveWallet(venue, simUrl, { walletAddress: wallet, privateKey });
    await control.deposit(venue, wallet, DEPOSIT);
    const signer = await signingKey(venue, simUrl, wallet, privateKey);
    await runOps(
      [
        ...['credentials', 'add', '--user', user.user_id, '--exchange', venue],
        ...['--wallet', wallet, '--api-key', signer.apiKey, '--api-secret', signer.apiSecret],
      ],
      env,
    );
  }
  return { userId: user.user_id, wallet, key: await tradingKey(env, user.user_id) };
}

/** The key that signs for the wallet on a venue, as the gateway harness's `liveTrader` makes it. */
async function signingKey(
  venue: string,
  simUrl: string,
  wallet: string,
  privateKey: `0x${string}`,
): Promise<{ apiKey: string; apiSecret: string }> {
  switch (venue) {
    case 'extended': {
      // An API key of the wallet's account, and the account's own stark key.
      const starkKey = `0x${(BigInt(privateKey) % 2n ** 250n).toString(16)}`;
      return { apiKey: await issueExtendedApiKey(simUrl, wallet, starkKey), apiSecret: starkKey };
    }
    case 'lighter': {
      // `<account index>:<API key index>` and the API key's private key.
      const key = await lighterApiKeyCredentials(simUrl, wallet, `bench:${wallet}`);
      return { apiKey: key.apiKey!, apiSecret: key.secret! };
    }
    case 'aster': {
      // The wallet's own key, or an API wallet where the dialect refuses a main wallet signing.
      const key = await asterLiveCredentials(simUrl, `bench:${wallet}`, {
        address: wallet,
        privateKey,
      });
      return { apiKey: key.apiKey ?? wallet, apiSecret: key.privateKey };
    }
    default:
      // Hyperliquid and Paradex: the wallet signs for itself.
      return { apiKey: wallet, apiSecret: privateKey };
  }
}
