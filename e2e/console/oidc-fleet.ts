import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { PrivateKeyAccount } from 'viem/accounts';
import { startNotifier, type RunningNotifier } from '@sts/app-notifier';
import { WorkerHarness } from '@sts/app-worker-testing';
import { freePort } from '../fault-matrix/processes';
import { CHROMIUM, installTestWallet } from './console-fleet';

const ROOT = resolve(__dirname, '../..');
/** The console's client id at the test provider; the gateway checks it as the ID token's audience. */
export const CLIENT_ID = 'sts-console';
/** ID token lifetime in the spec, so it sees the console renew one with its refresh token. */
export const OIDC_TOKEN_TTL_S = 15;

/** How the test provider is set up (`oidc-provider.mjs` says what each profile does). */
export interface ProviderProfile {
  name: 'wallet-claim' | 'as-public-providers';
  tokenTtlS: number;
}

/** A provider set up for this service: the wallet claim, refresh without offline_access, 15 s tokens. */
export const WALLET_CLAIM_PROVIDER: ProviderProfile = {
  name: 'wallet-claim',
  tokenTtlS: OIDC_TOKEN_TTL_S,
};

/**
 * As Google, Entra ID, Auth0 and Keycloak come: no wallet claim, a refresh
 * token only for offline_access, and ID tokens of Auth0's default lifetime
 * (36,000 s, the longest of theirs).
 */
export const AS_PUBLIC_PROVIDERS: ProviderProfile = {
  name: 'as-public-providers',
  tokenTtlS: 36_000,
};
/** The provider listens in 0.4 s alone and under 2 s beside four CPU-bound processes. */
const PROVIDER_START_MS = 20_000;
const PROVIDER_START_ATTEMPTS = 3;

/**
 * The fleet on paper venues (the worker harness: gateway, simulator, budget
 * service, a worker; a notifier) signing users in through a real OpenID
 * Connect provider (oidc-provider, `oidc-provider.mjs`, a child process) and
 * no development identity provider: the production shape of `AUTH_JWKS_URL`.
 * The gateway checks tokens against the provider's jwks_uri with its issuer
 * and, as audience, the console's client id (the console then sends the ID
 * token). The provider must know the console's redirect URI, on the port the
 * gateway picks, so its own port is reserved first and it starts second.
 */
export class OidcFleet {
  readonly harness = new WorkerHarness();
  readonly build: string;
  notifier!: RunningNotifier;
  provider?: ChildProcess;
  issuer = '';

  constructor(
    readonly account: { id: string; wallet?: string },
    readonly profile: ProviderProfile = WALLET_CLAIM_PROVIDER,
  ) {
    mkdirSync(join(ROOT, 'tmp'), { recursive: true });
    this.build = mkdtempSync(join(ROOT, 'tmp', 'console-oidc-e2e-'));
  }

  get baseUrl(): string {
    return this.harness.gateway.baseUrl;
  }

  async start(): Promise<this> {
    execFileSync(
      process.execPath,
      [join(ROOT, 'tools/build.mjs'), '--quiet', '--out', join(this.build, 'dist')],
      { cwd: ROOT },
    );
    const providerPort = await freePort();
    const notifierPort = await freePort();
    this.issuer = `http://127.0.0.1:${providerPort}`;
    await this.harness.start({
      env: {
        // oidc-provider's jwks_uri (the spec checks the discovery document names it).
        AUTH_JWKS_URL: `${this.issuer}/jwks`,
        AUTH_JWT_ISSUER: this.issuer,
        AUTH_JWT_AUDIENCE: CLIENT_ID,
        OIDC_ISSUER_URL: this.issuer,
        OIDC_CLIENT_ID: CLIENT_ID,
        CONSOLE_DIR: join(this.build, 'dist/apps/console'),
        CONSOLE_NOTIFIER_WS_URL: `ws://127.0.0.1:${notifierPort}/api/v1/ws`,
      },
    });
    this.notifier = await startNotifier({
      ...this.harness.gateway.env,
      NOTIFIER_PORT: String(notifierPort),
      NOTIFIER_HOST: '127.0.0.1',
      LOG_FILE: join(this.harness.logDir, 'notifier.log'),
    });
    await this.startProvider(providerPort);
    return this;
  }

  /**
   * Starts the provider, again if it has not listened within
   * PROVIDER_START_MS. Once in four CI runs of four spec workers it stopped
   * for 85 s between loading the package and its set-up, which no run alone
   * or under CPU load reproduced; the provider logs when each phase begins
   * (`oidc-provider.log`), so a slow start says where it stood.
   */
  private async startProvider(port: number): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      const provider = this.spawnProvider(port);
      this.provider = provider;
      const ready = await this.providerReady(provider);
      if (ready) {
        return;
      }
      provider.kill('SIGKILL');
      await once(provider, 'exit');
      if (attempt === PROVIDER_START_ATTEMPTS) {
        throw new Error(
          `the OpenID Connect provider did not listen within ${PROVIDER_START_MS} ms, ${attempt} times`,
        );
      }
    }
  }

  private spawnProvider(port: number): ChildProcess {
    // Its warnings (development adapter and interactions) go to the run's logs, not the test output.
    const log = openSync(join(this.harness.logDir, 'oidc-provider.log'), 'a');
    const provider = spawn(process.execPath, [join(__dirname, 'oidc-provider.mjs')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', log],
      env: {
        PATH: process.env['PATH'] ?? '',
        OIDC_TEST_PORT: String(port),
        OIDC_TEST_CLIENT_ID: CLIENT_ID,
        OIDC_TEST_REDIRECT_URI: `${this.baseUrl}/console/callback`,
        OIDC_TEST_POST_LOGOUT_REDIRECT_URI: `${this.baseUrl}/console/sign-in`,
        OIDC_TEST_ACCOUNT: this.account.id,
        ...(this.account.wallet ? { OIDC_TEST_WALLET: this.account.wallet } : {}),
        OIDC_TEST_PROFILE: this.profile.name,
        OIDC_TEST_TOKEN_TTL_S: String(this.profile.tokenTtlS),
      },
    });
    closeSync(log);
    return provider;
  }

  /** True once the provider says it listens; false when PROVIDER_START_MS passed first. */
  private async providerReady(provider: ChildProcess): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), PROVIDER_START_MS);
    });
    try {
      // No branch rejects: the ones that lose the race (an exit after a kill) must not either.
      const said = await Promise.race([
        once(provider.stdout!, 'data') as Promise<[Buffer]>,
        once(provider, 'exit').then(() => 'exited' as const),
        late,
      ]);
      if (said === null) {
        return false;
      }
      if (said === 'exited') {
        throw new Error('the OpenID Connect provider exited before it listened');
      }
      if (!said[0].toString().includes('ready')) {
        throw new Error(`the OpenID Connect provider said: ${said[0].toString()}`);
      }
      return true;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Whether the provider still honours a refresh token (revoked at sign-out: it must not). */
  async refreshTokenHonoured(refreshToken: string): Promise<boolean> {
    const response = await fetch(`${this.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: CLIENT_ID,
      }),
    });
    return response.ok;
  }

  async stop(): Promise<void> {
    this.provider?.kill('SIGTERM');
    await this.notifier?.close();
    await this.harness.stop();
    rmSync(this.build, { recursive: true, force: true });
  }
}

/**
 * Chromium for the spec: the provider's sign-in is the only way in; with
 * `wallets`, a test wallet injected as `window.ethereum` (the console
 * specs' own, `testWalletScript`) signs the challenges that link them.
 * Console errors and page errors on the console's own pages are kept (a spec
 * fails on any); the provider's pages are the package's, not ours. Their
 * stylesheet imports a web font, answered here with an empty one.
 */
export class OidcBrowser {
  private browser?: Browser;
  page!: Page;
  readonly errors: string[] = [];
  /** The messages the injected wallet signed. */
  readonly signatures: Array<{ address: string; message: string }> = [];

  constructor(private readonly wallets: PrivateKeyAccount[] = []) {}

  async start(consoleOrigin: () => string): Promise<this> {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`no Chromium at ${CHROMIUM}: install Debian's or set CHROMIUM_PATH`);
    }
    this.browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox'],
    });
    const context = await this.browser.newContext({ viewport: { width: 1366, height: 900 } });
    await context.route(/^https:\/\/fonts\.(googleapis|gstatic)\.com\//, (route) =>
      route.fulfill({ status: 200, contentType: 'text/css', body: '' }),
    );
    this.page = await context.newPage();
    if (this.wallets.length > 0) {
      await this.injectWallet();
    }
    const ours = (url: string) => url.startsWith(consoleOrigin());
    this.page.on('console', (message) => {
      if (message.type() === 'error' && ours(message.location().url)) {
        this.errors.push(`console error: ${message.text()} (${message.location().url})`);
      }
    });
    this.page.on('pageerror', (error) => {
      if (ours(this.page.url())) {
        this.errors.push(`page error: ${error.message}`);
      }
    });
    return this;
  }

  private async injectWallet(): Promise<void> {
    await installTestWallet(this.page, this.wallets, this.signatures);
  }

  async stop(): Promise<void> {
    await this.browser?.close();
  }
}

/**
 * Signs in at the provider's own pages (oidc-provider's development login
 * and consent forms) from the console's sign-in page.
 */
export async function signInAtProvider(page: Page, fleet: OidcFleet): Promise<void> {
  await page.getByRole('button', { name: `Sign in with ${new URL(fleet.issuer).host}` }).click();
  await page.waitForURL((url) => url.origin === fleet.issuer);
  await page.locator('input[name="login"]').fill(fleet.account.id);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

/**
 * The console's "Sign out": the provider's logout page (RP-initiated logout,
 * reached with the session's ID token), confirmed, and back on the
 * console's sign-in page, the post-logout redirect URI.
 */
export async function signOutAtProvider(page: Page, fleet: OidcFleet): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL((url) => url.origin === fleet.issuer);
  await page.getByRole('button', { name: 'Yes, sign me out' }).click();
  await page.waitForURL((url) => url.href.startsWith(`${fleet.baseUrl}/console/sign-in`));
}
