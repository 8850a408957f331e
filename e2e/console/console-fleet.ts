import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type ConsoleMessage,
  type Page,
} from 'playwright-core';
import type { Hex } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { startNotifier, type RunningNotifier } from '@sts/app-notifier';
import { eventually, WorkerHarness } from '@sts/app-worker-testing';
import { freePort } from '../fault-matrix/processes';

const ROOT = resolve(__dirname, '../..');
/** Debian's package (.ci/run installs it); never a browser build downloaded by a tool. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
/** What the development identity provider signs for (its defaults; the gateway is told the same). */
const ISSUER = 'urn:sts:identity-dev';
const AUDIENCE = 'spread-trading';
/** Session token lifetime in the spec (the provider's minimum is 10 s; 900 in `npm start`). */
export const TOKEN_TTL_S = 12;

/** A directory of this run under the repository's tmp/ (a fresh clone has none yet). */
function scratchDir(prefix: string): string {
  mkdirSync(join(ROOT, 'tmp'), { recursive: true });
  return mkdtempSync(join(ROOT, 'tmp', prefix));
}

/** Opens a console page by its link in the main navigation and waits for its heading. */
export async function goToPage(page: Page, link: string, heading: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: link, exact: true })
    .click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** A paper venue's API key and secret, as the console's user linked them. */
export type PaperKey = { apiKey: string; apiSecret: string };

/**
 * Signs the browser's wallet in from the console's start page, then links a
 * fresh paper credential of that wallet on each venue through the API (as
 * the Account page would); the keys, by venue.
 */
export async function signInAndLinkPaper(
  page: Page,
  baseUrl: string,
  wallet: string,
  venues: readonly string[],
): Promise<Record<string, PaperKey>> {
  await page.goto(`${baseUrl}/console/`);
  await page.getByRole('button', { name: 'Sign in with wallet' }).click();
  await page.getByRole('heading', { level: 1, name: 'Trades' }).waitFor();
  const api = sessionApi(page, baseUrl);
  const keys: Record<string, PaperKey> = {};
  for (const venue of venues) {
    const key = {
      apiKey: `paper-${randomBytes(4).toString('hex')}`,
      apiSecret: randomBytes(16).toString('hex'),
    };
    const added = await api('POST', `/credentials/${venue}`, {
      wallet_addr: wallet,
      api_key: key.apiKey,
      api_secret: key.apiSecret,
    });
    if (added.status !== 201) {
      throw new Error(`linking a ${venue} credential answered ${added.status}`);
    }
    keys[venue] = key;
  }
  return keys;
}

/**
 * The REST API as the signed-in console calls it: with the session token the
 * console keeps (and renews) in the page, its answer's status and JSON body.
 */
export function sessionApi(page: Page, baseUrl: string) {
  return async (method: string, path: string, body?: unknown) => {
    const { token } = JSON.parse(
      String(await page.evaluate("sessionStorage.getItem('sts-console.session')")),
    ) as { token: string };
    const response = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
}

/**
 * The fleet a browser talks to, on paper venues: the worker harness (gateway,
 * in-process venue simulator in manual time, budget service, a worker), a
 * notifier, and the development identity provider as its own process, all
 * from one build of the project (`tools/build.mjs --out`, the console
 * included) that the gateway serves under /console. `liveDialects` runs
 * those venues in live mode against the simulator's dialect of each (as the
 * worker harness does), so the console has a LIVE venue to show.
 *
 * The gateway listens on a port it picks, and the identity provider must
 * know the gateway's origin (the console's SIWE messages name it), so the
 * provider's and the notifier's ports are reserved first and the provider
 * starts once the gateway is up (the gateway reads the JWKS on first use).
 */
export class ConsoleFleet {
  readonly harness = new WorkerHarness();
  /** The spec's own build of the project (a fresh clone has no tmp/ yet). */
  readonly build = scratchDir('console-e2e-');
  notifier!: RunningNotifier;
  identity?: ChildProcess;
  identityUrl = '';

  /** `env`: further settings of the gateway and the notifier (e.g. WEBHOOKS_*). */
  constructor(
    private readonly options: { liveDialects?: string[]; env?: Record<string, string> } = {},
  ) {}

  get baseUrl(): string {
    return this.harness.gateway.baseUrl;
  }

  async start(): Promise<this> {
    execFileSync(
      process.execPath,
      [join(ROOT, 'tools/build.mjs'), '--quiet', '--out', join(this.build, 'dist')],
      {
        cwd: ROOT,
      },
    );
    const identityPort = await freePort();
    const notifierPort = await freePort();
    this.identityUrl = `http://127.0.0.1:${identityPort}`;
    await this.harness.start({
      liveDialects: this.options.liveDialects,
      env: {
        ...this.options.env,
        AUTH_JWKS_URL: `${this.identityUrl}/.well-known/jwks.json`,
        AUTH_JWT_ISSUER: ISSUER,
        AUTH_JWT_AUDIENCE: AUDIENCE,
        CONSOLE_DIR: join(this.build, 'dist/apps/console'),
        CONSOLE_IDENTITY_URL: this.identityUrl,
        CONSOLE_NOTIFIER_WS_URL: `ws://127.0.0.1:${notifierPort}/api/v1/ws`,
        // A live venue turns the development wallet off by default; these live venues are the
        // simulator's dialects (no real money), so the spec keeps it, as on a paper fleet.
        ...(this.options.liveDialects?.length ? { CONSOLE_PAPER: 'true' } : {}),
      },
    });
    this.notifier = await startNotifier({
      ...this.harness.gateway.env,
      NOTIFIER_PORT: String(notifierPort),
      NOTIFIER_HOST: '127.0.0.1',
      LOG_FILE: join(this.harness.logDir, 'notifier.log'),
    });
    this.identity = spawn(
      process.execPath,
      [join(this.build, 'dist/apps/identity-dev/src/main.js')],
      {
        cwd: this.build,
        stdio: 'ignore',
        env: {
          PATH: process.env['PATH'] ?? '',
          IDENTITY_DEV_PORT: String(identityPort),
          IDENTITY_DEV_HOST: '127.0.0.1',
          IDENTITY_DEV_ALLOWED_ORIGINS: new URL(this.baseUrl).origin,
          AUTH_JWT_ISSUER: ISSUER,
          AUTH_JWT_AUDIENCE: AUDIENCE,
          // Short-lived tokens, so the spec sees the console renew one.
          IDENTITY_DEV_TOKEN_TTL_S: String(TOKEN_TTL_S),
          LOG_LEVEL: 'debug',
          LOG_FILE: join(this.harness.logDir, 'identity-dev.log'),
        },
      },
    );
    await eventually(
      async () => (await fetch(`${this.identityUrl}/livez`).catch(() => undefined))?.ok,
      'the development identity provider to answer',
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    return this;
  }

  async stop(): Promise<void> {
    this.identity?.kill('SIGTERM');
    await this.notifier?.close();
    await this.harness.stop();
    rmSync(this.build, { recursive: true, force: true });
  }
}

/** A network refusal the test provoked on purpose: Chromium logs it as a console error. */
export interface ExpectedRefusal {
  status: number;
  url: RegExp;
}

/**
 * Chromium with a test wallet injected as `window.ethereum` (EIP-1193:
 * eth_requestAccounts, eth_accounts, eth_chainId, personal_sign), backed by
 * viem local accounts in the test process. Every console error and page
 * error is kept; a spec fails on any it did not declare.
 */
export class ConsoleBrowser {
  private browser?: Browser;
  private context?: BrowserContext;
  page!: Page;
  readonly signatures: Array<{ address: string; message: string }> = [];
  readonly errors: string[] = [];
  /** WebSockets the pages opened (a renewed session keeps its socket). */
  socketsOpened = 0;
  private readonly expected: ExpectedRefusal[] = [];
  readonly accounts: PrivateKeyAccount[];

  constructor(
    keys: Hex[],
    private readonly screenshotDir: string,
  ) {
    this.accounts = keys.map((key) => privateKeyToAccount(key));
  }

  async start(): Promise<this> {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `no Chromium at ${CHROMIUM}: install Debian's (apt-get install chromium, as .ci/run does) or set CHROMIUM_PATH`,
      );
    }
    this.browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      // Root in CI containers: Chromium's sandbox needs user namespaces it may not have.
      args: ['--no-sandbox'],
    });
    this.context = await this.browser.newContext({ viewport: { width: 1366, height: 900 } });
    this.page = await this.watchedPage();
    await installTestWallet(this.page, this.accounts, this.signatures);
    return this;
  }

  /** Another tab of the same browser, without the injected wallet (localStorage shared, sessionStorage not). */
  async pageWithoutWallet(): Promise<Page> {
    return this.watchedPage();
  }

  private async watchedPage(): Promise<Page> {
    const page = await this.context!.newPage();
    page.on('console', (message) => this.onConsole(message));
    page.on('pageerror', (error) => this.errors.push(`page error: ${error.message}`));
    page.on('websocket', () => {
      this.socketsOpened += 1;
    });
    return page;
  }

  /** Lets the pages of `origin` write and read the clipboard (a copy button, read back). */
  async grantClipboard(origin: string): Promise<void> {
    await this.context!.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  }

  /** The next console error for a response with this status and URL is part of the test. */
  expectRefusal(refusal: ExpectedRefusal): void {
    this.expected.push(refusal);
  }

  /** `fullPage: false` for a modal dialog: its backdrop covers the viewport, not the page. */
  async screenshot(name: string, { fullPage = true } = {}): Promise<void> {
    mkdirSync(this.screenshotDir, { recursive: true });
    // From the top: a filled-in field scrolls the page, and the spread panel is sticky.
    await this.page.evaluate('window.scrollTo(0, 0)');
    await this.page.screenshot({ path: join(this.screenshotDir, `${name}.png`), fullPage });
  }

  async stop(): Promise<void> {
    await this.context?.close();
    await this.browser?.close();
  }

  private onConsole(message: ConsoleMessage): void {
    if (message.type() !== 'error') {
      return;
    }
    const status = /status of (\d{3})/.exec(message.text())?.[1];
    const url = message.location().url;
    const index = this.expected.findIndex(
      (refusal) =>
        status !== undefined && refusal.status === Number(status) && refusal.url.test(url),
    );
    if (index >= 0) {
      this.expected.splice(index, 1);
      return;
    }
    this.errors.push(`console error: ${message.text()} (${url})`);
  }
}

/**
 * Gives `page` the test wallet: the page script below, and its signer in the
 * test process, which signs with `accounts`' keys and records each message.
 */
export async function installTestWallet(
  page: Page,
  accounts: readonly PrivateKeyAccount[],
  signatures: Array<{ address: string; message: string }>,
): Promise<void> {
  await page.exposeFunction('__stsTestWalletSign', async (address: string, message: Hex) => {
    const account = accounts.find(
      (candidate) => candidate.address.toLowerCase() === address.toLowerCase(),
    );
    if (!account) {
      throw new Error(`the test wallet holds no key for ${address}`);
    }
    signatures.push({
      address,
      message: Buffer.from(message.slice(2), 'hex').toString('utf8'),
    });
    return account.signMessage({ message: { raw: message } });
  });
  await page.addInitScript(testWalletScript(accounts.map((account) => account.address)));
}

/** The injected wallet, as a page script: its keys stay in the test process. */
export function testWalletScript(addresses: string[]): string {
  return `(() => {
    const accounts = ${JSON.stringify(addresses)};
    window.ethereum = {
      isStsTestWallet: true,
      async request({ method, params }) {
        switch (method) {
          case 'eth_requestAccounts':
          case 'eth_accounts':
            return accounts;
          case 'eth_chainId':
            return '0x1';
          case 'personal_sign':
            return window.__stsTestWalletSign(params[1], params[0]);
          default:
            throw Object.assign(new Error('unsupported method ' + method), { code: 4200 });
        }
      },
    };
  })();`;
}
