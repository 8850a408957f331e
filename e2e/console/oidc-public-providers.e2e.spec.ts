import { randomBytes } from 'node:crypto';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { eventually } from '@sts/app-worker-testing';
import { goToPage } from './console-fleet';
import {
  AS_PUBLIC_PROVIDERS,
  OidcBrowser,
  OidcFleet,
  signInAtProvider,
  signOutAtProvider,
} from './oidc-fleet';

jest.setTimeout(60_000);

/**
 * Issue 59: sign-in through an OpenID Connect provider set up as Google,
 * Entra ID, Auth0 and Keycloak come (oidc-provider, profile
 * `as-public-providers`): its tokens name the user and no wallet, it issues a
 * refresh token only for `offline_access`, and its ID tokens live 10 hours
 * (Auth0's default). The gateway runs with its default settings for the
 * lifetime cap. The console signs in (asking `offline_access`, which the
 * provider's discovery document lists), walks the new account to link a
 * wallet (the browser's, signing the gateway's challenge), trades from it,
 * and signs out at the provider: the provider's session ends (the next
 * sign-in asks for the login again) and the refresh token is revoked (an
 * offline grant outlives the provider's session otherwise).
 */
describe('trader console signed in through a provider as the public ones come', () => {
  const account = { id: `person-${randomBytes(4).toString('hex')}` };
  const wallet = privateKeyToAccount(generatePrivateKey());
  const fleet = new OidcFleet(account, AS_PUBLIC_PROVIDERS);
  const browser = new OidcBrowser([wallet]);
  let page: OidcBrowser['page'];

  const stored = async () =>
    JSON.parse(String(await page.evaluate("sessionStorage.getItem('sts-console.session')"))) as {
      token: string;
      expiresAt: string;
      userId: string;
      wallet: string | null;
      oidc?: { refreshToken?: string; idToken?: string };
    } | null;
  const heading = (name: string) => page.getByRole('heading', { level: 1, name });
  const statusIs = (status: string) =>
    page
      .getByTestId('trade-status')
      .getByText(status, { exact: true })
      .waitFor({ timeout: 20_000 });

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

  it('signs in with no wallet claim, a 10-hour ID token and a refresh token, and asks for a wallet', async () => {
    expect(fleet.harness.gateway.env['AUTH_JWT_MAX_LIFETIME_S']).toBeUndefined();
    await page.goto(`${fleet.baseUrl}/console/`);
    await signInAtProvider(page, fleet);

    // The account exists, without a wallet: the console shows the page that links one, and no other.
    await heading('Link a wallet').waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link').count()).toBe(0);
    const session = await stored();
    expect(session).toMatchObject({ userId: account.id, wallet: null });
    expect(Date.parse(session!.expiresAt) - Date.now()).toBeGreaterThan(9.9 * 3_600_000);
    // Issued only for offline_access: the console asked it, as the discovery document lists it.
    expect(session!.oidc?.refreshToken).toEqual(expect.any(String));

    const wallets = await fetch(`${fleet.baseUrl}/api/v1/wallets`, {
      headers: { authorization: `Bearer ${session!.token}` },
    });
    expect(wallets.status).toBe(200);
    expect(await wallets.json()).toEqual([]);
  });

  it("links the browser's wallet by signing the gateway's challenge; it becomes the primary", async () => {
    // The page offers the browser wallet's account, once the wallet has named it.
    const address = page.getByLabel('Wallet address', { exact: true });
    const offered = await eventually(
      async () => (await address.inputValue()) || undefined,
      'the wallet address offered',
    );
    expect(offered.toLowerCase()).toBe(wallet.address.toLowerCase());
    await page.getByRole('button', { name: 'Sign and link' }).click();

    // The page the sign-in was going to (the trades) opens once the account has its wallet.
    await heading('Trades').waitFor();
    expect(browser.signatures).toHaveLength(1);
    expect(browser.signatures[0].message).toContain(
      'Link this wallet to your spread-trading account',
    );
    expect(browser.signatures[0].message).toContain(`Account: ${account.id}`);
    expect((await stored())?.wallet).toBe(wallet.address.toLowerCase());
  });

  it('trades from that wallet: credentials, a create and a cancel', async () => {
    await goToPage(page, 'Account', 'Account');
    await page.getByTestId('wallets-table').getByText(wallet.address.toLowerCase()).waitFor();
    await page.getByTestId('wallets-table').getByText('primary', { exact: true }).waitFor();
    for (const venue of ['hyperliquid', 'paradex']) {
      await page.getByLabel('Venue', { exact: true }).selectOption(venue);
      await page.getByLabel('API key', { exact: true }).fill(`paper-public-${venue}`);
      await page.getByLabel('API secret', { exact: true }).fill(randomBytes(16).toString('hex'));
      await page.getByRole('button', { name: 'Add credential' }).click();
      await page.getByRole('status').getByText(`Added the ${venue} credential.`).waitFor();
    }

    await goToPage(page, 'New trade', 'New trade');
    await page.getByLabel('Target spread').fill('-1000');
    await page.getByLabel('Target size').fill('0.002');
    await page.getByRole('button', { name: 'Create trade' }).click();
    await statusIs('active');
    await page.getByRole('button', { name: 'Cancel trade' }).click();
    await statusIs('canceled');
  });

  it("signs out at the provider: the provider's session ends and the refresh token is revoked", async () => {
    const refreshToken = (await stored())?.oidc?.refreshToken;
    await signOutAtProvider(page, fleet);
    expect(await stored()).toBeNull();
    expect(await fleet.refreshTokenHonoured(refreshToken!)).toBe(false);

    // Signing in again: the provider no longer knows the browser, and asks who it is.
    await page.getByRole('button', { name: `Sign in with ${new URL(fleet.issuer).host}` }).click();
    await page.waitForURL((url) => url.origin === fleet.issuer);
    await page.locator('input[name="login"]').waitFor();
  });
});
