import { randomBytes } from 'node:crypto';
import { eventually } from '@sts/app-worker-testing';
import {
  CLIENT_ID,
  OIDC_TOKEN_TTL_S,
  OidcBrowser,
  OidcFleet,
  signInAtProvider,
  signOutAtProvider,
} from './oidc-fleet';
import { goToPage } from './console-fleet';

jest.setTimeout(60_000);

/**
 * Issue 37: with AUTH_JWKS_URL pointing at a real OpenID Connect provider
 * (oidc-provider, started by the spec) the console is no dead end. It offers
 * the provider's sign-in, leaves for it (authorization code with PKCE), the
 * spec fills the provider's login and consent pages, and the console comes
 * back signed in as the account of the token's subject and wallet claim. It
 * then adds credentials, creates a trade from the form and cancels it, renews
 * its token with the provider's refresh token before it expires, and signs
 * out at the provider too (issue 59): the provider's session ends, so the
 * next sign-in asks for the login again, and the refresh token is revoked.
 * `oidc-public-providers.e2e.spec.ts` signs in through a provider set up as
 * the public ones come. Any console error on the console's pages fails the step.
 */
describe('trader console signed in through an OpenID Connect provider', () => {
  const account = {
    id: `trader-${randomBytes(4).toString('hex')}`,
    wallet: `0x${randomBytes(20).toString('hex')}`,
  };
  const fleet = new OidcFleet(account);
  const browser = new OidcBrowser();
  let page: OidcBrowser['page'];

  const stored = async () =>
    JSON.parse(String(await page.evaluate("sessionStorage.getItem('sts-console.session')"))) as {
      token: string;
      expiresAt: string;
      userId: string;
      wallet: string;
      oidc?: { refreshToken?: string };
    } | null;
  const goTo = (link: string, heading: string) => goToPage(page, link, heading);
  const statusIs = (status: string) =>
    page
      .getByTestId('trade-status')
      .getByText(status, { exact: true })
      .waitFor({ timeout: 20_000 });
  const providerButton = () =>
    page.getByRole('button', { name: `Sign in with ${new URL(fleet.issuer).host}` });

  beforeAll(async () => {
    await browser.start(() => new URL(fleet.baseUrl).origin);
    await fleet.start();
    page = browser.page;
  }, 90_000);

  afterAll(async () => {
    await browser.stop();
    await fleet.stop();
  });

  afterEach(() => {
    expect(browser.errors.splice(0)).toEqual([]);
  });

  it("tells the console the provider, and the gateway checks that provider's keys", async () => {
    const config = (await (await fetch(`${fleet.baseUrl}/console/config.json`)).json()) as {
      identity_url: string | null;
      oidc: unknown;
    };
    expect(config.identity_url).toBeNull();
    expect(config.oidc).toEqual({
      issuer: fleet.issuer,
      client_id: CLIENT_ID,
      scope: 'openid',
      bearer_token: 'id_token',
    });
    const discovery = (await (
      await fetch(`${fleet.issuer}/.well-known/openid-configuration`)
    ).json()) as { jwks_uri: string };
    expect(fleet.harness.gateway.env['AUTH_JWKS_URL']).toBe(discovery.jwks_uri);
  });

  it("signs in through the provider's login and consent pages and lands on the trades", async () => {
    await page.goto(`${fleet.baseUrl}/console/`);
    await signInAtProvider(page, fleet);

    await page.getByRole('heading', { level: 1, name: 'Trades' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    // The gateway's account for the token: its subject, with the wallet claim as primary wallet.
    expect(await stored()).toMatchObject({ userId: account.id, wallet: account.wallet });
    await page.getByTestId('socket-state').getByText('updates: streaming').waitFor();
  });

  it('adds credentials and creates a trade from the form, then cancels it', async () => {
    await goTo('Account', 'Account');
    for (const venue of ['hyperliquid', 'paradex']) {
      await page.getByLabel('Venue', { exact: true }).selectOption(venue);
      await page.getByLabel('API key', { exact: true }).fill(`paper-oidc-${venue}`);
      await page.getByLabel('API secret', { exact: true }).fill(randomBytes(16).toString('hex'));
      await page.getByRole('button', { name: 'Add credential' }).click();
      await page.getByRole('status').getByText(`Added the ${venue} credential.`).waitFor();
    }
    await page.getByTestId('wallets-table').getByText(account.wallet).waitFor();

    await goTo('New trade', 'New trade');
    await page.getByLabel('Target spread').fill('-1000');
    await page.getByLabel('Target size').fill('0.002');
    await page.getByRole('button', { name: 'Create trade' }).click();
    await statusIs('active');
    await page.getByRole('button', { name: 'Cancel trade' }).click();
    await statusIs('canceled');

    await goTo('Trades', 'Trades');
    await page.getByTestId('trades-table').getByText('canceled', { exact: true }).waitFor();
  });

  it("renews its token with the provider's refresh token before it expires", async () => {
    const before = await stored();
    const renewed = await eventually(
      async () => {
        const now = await stored();
        return now && now.token !== before?.token ? now : undefined;
      },
      'the console to renew its token',
      { timeoutMs: OIDC_TOKEN_TTL_S * 1000, intervalMs: 250 },
    );
    expect(Date.parse(renewed.expiresAt)).toBeGreaterThan(Date.parse(before!.expiresAt));
    // Time itself is what is tested here: the first token's expiry, and the gateway's 5 s tolerance, must pass.
    await eventually(
      () => Date.now() > Date.parse(before!.expiresAt) + 6_000,
      "the first token's expiry",
      { timeoutMs: OIDC_TOKEN_TTL_S * 1_000 + 8_000, intervalMs: 200 },
    );
    const trades = (token: string) =>
      fetch(`${fleet.baseUrl}/api/v1/trades`, { headers: { authorization: `Bearer ${token}` } });
    expect((await trades(before!.token)).status).toBe(401);
    expect((await trades((await stored())!.token)).status).toBe(200);
    await goTo('Markets', 'Markets');
    await goTo('Trades', 'Trades');
    await page.getByTestId('trades-table').getByText('canceled', { exact: true }).waitFor();
    expect(await page.getByTestId('socket-state').innerText()).toBe('updates: streaming');
  });

  it('signs out at the provider too: the next sign-in asks for the login again', async () => {
    const refreshToken = (await stored())?.oidc?.refreshToken;
    expect(refreshToken).toEqual(expect.any(String));
    await signOutAtProvider(page, fleet);
    await providerButton().waitFor();
    expect(await stored()).toBeNull();
    expect(await fleet.refreshTokenHonoured(refreshToken!)).toBe(false);

    await signInAtProvider(page, fleet);
    await page.getByRole('heading', { level: 1, name: 'Trades' }).waitFor();
    expect(await stored()).toMatchObject({ userId: account.id, wallet: account.wallet });
  });
});
