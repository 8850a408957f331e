import { sleep } from '@sts/platform';
import { CcxtVenueClient, createCcxtExchange, type CcxtExchangeLike } from '@sts/venues';
import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { harnessWallet, liveAccountCredentials, openLiveAccount } from '../../testing/live-harness';
import { SimControl } from '../../testing/sim-control';

// Paradex's JWTs "expire every 5 minutes. It is not possible to extend the
// expiration." (docs.paradex.trade, api/general-information/authentication).
// The dialect issues them so, whatever expiration the auth request signs,
// refuses one past its life, and the live client renews its own before then:
// a trade running past a token's life keeps placing orders.

// A client renewing over two 6 s token lives, on a loaded machine.
jest.setTimeout(60_000);

const VENUE = 'paradex';
const SYMBOL = 'ETH-USD-PERP';
/** One placement and its cancel at most this often: well inside Paradex's 1,500 requests a minute per IP (P6). */
const CYCLE_MS = 100;

/** The part of ccxt's Paradex class the spec signs an auth request with, as the official SDK does. */
interface ParadexCcxt {
  retrieveAccount(): Promise<{ address: string; privateKey: string }>;
  prepareParadexDomain(): Promise<unknown>;
  starknetEncodeStructuredData(
    domain: unknown,
    types: unknown,
    message: unknown,
    address: string,
  ): unknown;
  starknetSign(message: unknown, privateKey: string): string;
  privatePostAuth(params: Record<string, unknown>): Promise<{ jwt_token: string }>;
}

interface JwtSetting {
  lifetime_s: number;
  issued: number;
}

let sim: RunningVenueSim;
let control: SimControl;
const opened: CcxtExchangeLike[] = [];

beforeAll(async () => {
  sim = await startVenueSim({ seed: 43, tickMs: 0 });
  control = new SimControl(sim.url);
});

afterEach(async () => {
  await jwtSetting({ lifetime_s: 300 });
});

afterAll(async () => {
  await Promise.all(opened.map((exchange) => exchange.close()));
  await sim.stop();
});

/** The dialect's JWT lifetime (a test's setting; the venue's is 5 minutes) and how many it issued. */
async function jwtSetting(change?: { lifetime_s: number }): Promise<JwtSetting> {
  const response = await fetch(`${sim.url}/dialects/paradex/_sim/jwt`, {
    method: change ? 'PUT' : 'GET',
    headers: { 'content-type': 'application/json' },
    ...(change ? { body: JSON.stringify(change) } : {}),
  });
  if (!response.ok) {
    throw new Error(`_sim/jwt: HTTP ${response.status}`);
  }
  return (await response.json()) as JwtSetting;
}

/** An onboarded, funded account of the spec and its ccxt instance on the dialect. */
async function account(label: string): Promise<CcxtExchangeLike> {
  const exchange = await createCcxtExchange(
    VENUE,
    await liveAccountCredentials(VENUE, sim.url, label),
    { endpoint: `${sim.url}/dialects/paradex` },
  );
  opened.push(exchange);
  await openLiveAccount(VENUE, exchange, control, harnessWallet(label).address);
  return exchange;
}

/** A JWT from `POST /auth` signed to expire in a day, as paradex-py's `auth_headers` signs it. */
async function dayLongAuth(exchange: CcxtExchangeLike): Promise<string> {
  const paradex = exchange as unknown as ParadexCcxt;
  const signer = await paradex.retrieveAccount();
  const timestamp = Math.floor(Date.now() / 1000);
  const request = {
    method: 'POST',
    path: '/v1/auth',
    body: '',
    timestamp,
    expiration: timestamp + 86_400,
  };
  const felt = (name: string) => ({ name, type: 'felt' });
  const types = { Request: ['method', 'path', 'body', 'timestamp', 'expiration'].map(felt) };
  const message = paradex.starknetEncodeStructuredData(
    await paradex.prepareParadexDomain(),
    types,
    request,
    signer.address,
  );
  const answer = await paradex.privatePostAuth({
    signature: paradex.starknetSign(message, signer.privateKey),
    account: signer.address,
    timestamp: request.timestamp,
    expiration: request.expiration,
  });
  return answer.jwt_token;
}

function claimsOf(jwt: string): Record<string, unknown> {
  const [, payload] = jwt.split('.');
  return JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
}

const balanceWith = (jwt: string) =>
  fetch(`${sim.url}/dialects/paradex/v1/balance`, { headers: { authorization: `Bearer ${jwt}` } });

describe('Paradex JWT lifetime', () => {
  it('issues a JWT that lives 5 minutes, whatever expiration the auth request signs', async () => {
    const exchange = await account('jwt-five-minutes');
    const claims = claimsOf(await dayLongAuth(exchange));
    expect(Number(claims['exp']) - Number(claims['iat'])).toBe(300);
  });

  it('refuses a request whose JWT is past its life: 401', async () => {
    const exchange = await account('jwt-refused');
    await jwtSetting({ lifetime_s: 2 });
    const jwt = await dayLongAuth(exchange);
    expect((await balanceWith(jwt)).status).toBe(200);
    await sleep(Number(claimsOf(jwt)['exp']) * 1000 - Date.now() + 50);
    const refused = await balanceWith(jwt);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: '40111' });
  });

  it('the live client renews its JWT and keeps placing orders past the life of one', async () => {
    const exchange = await account('jwt-renewed');
    // Renewed at 3/5 of its life in whole seconds (3 s), the token still has
    // 2 s or more for a request under load; 2 s lives left a few hundred ms.
    const lifetimeS = 6;
    await jwtSetting({ lifetime_s: lifetimeS });
    const client = new CcxtVenueClient({ venue: VENUE, exchange });
    await client.connect();
    const issuedBefore = (await jwtSetting()).issued;
    const market = sim.world().venue(VENUE).market(SYMBOL);
    const price = market.price.format(market.book.bids.top(1)[0]!.priceTicks - 50);
    const startedAt = Date.now();
    let lastPlacedAt = startedAt;
    // Placements and cancels, one after the other, for more than two lifetimes,
    // a pair every CYCLE_MS: unpaced, a fast machine sent over 1,500 requests
    // a minute from this one address, and the dialect refused them (P6) as
    // the venue would.
    for (let n = 1; Date.now() - startedAt < 2.2 * lifetimeS * 1000; n += 1) {
      await sleep(CYCLE_MS);
      const ack = await client.placePostOnly({
        symbol: SYMBOL,
        side: 'buy',
        price,
        size: '0.1',
        clientOrderId: `jwt-renewed-${n}`,
      });
      expect(ack.order.status).toBe('open');
      lastPlacedAt = Date.now();
      const canceled = await client.cancel({ orderId: ack.order.orderId, symbol: SYMBOL });
      expect(canceled.outcome).toBe('canceled');
    }
    expect(lastPlacedAt - startedAt).toBeGreaterThan(2 * lifetimeS * 1000);
    expect((await jwtSetting()).issued - issuedBefore).toBeGreaterThanOrEqual(2);
    await client.close();
  });
});
