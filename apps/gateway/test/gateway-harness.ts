import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadBudgetSettings, startBudgetService, type BudgetService } from '@sts/app-budget';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  SimControl,
  asterLiveCredentials,
  issueExtendedApiKey,
  lighterApiKeyCredentials,
  lighterTestSignerFiles,
  onboardLiveWallet,
  startVenueSim,
  type RunningVenueSim,
} from '@sts/app-venue-sim';
import { loadVenueRegistry } from '@sts/platform';
import {
  createTestDatabase,
  JwksServer,
  OpenApiConformance,
  testNamespace,
  TestOperator,
  type PaperCredential,
  type TestDatabase,
  type TestUser,
} from '@sts/testing';
import { createGatewayApp } from '../src/bootstrap';
import { loadGatewayConfig } from '../src/config/load-gateway-settings';
import { GatewayMetrics } from '../src/metrics/gateway-metrics';

export interface HarnessOptions {
  /** Start a paper exchange (in-process venue-sim) for market data and trading. */
  venues?: boolean;
  /** Start the budget service (rate budgets for trade creation). */
  budget?: boolean;
  env?: Record<string, string>;
  /**
   * Venues run in live mode (the ccxt client) against the simulator's dialect
   * of each (`VENUE_<ID>_MODE=live`, `VENUE_<ID>_ENDPOINT=<sim>/dialects/<id>`).
   */
  liveDialects?: string[];
  /** Settings of the gateway alone (e.g. DATABASE_URL through a TcpProxy); specs and ops keep `env`. */
  gatewayEnv?: (env: Record<string, string>) => Record<string, string>;
  /** Settings of the budget service alone (e.g. REDIS_URL through a TcpProxy). */
  budgetEnv?: (env: Record<string, string>) => Record<string, string>;
}

/** Every answer the HTTP specs receive is checked against the committed OpenAPI document. */
const OPENAPI_FILE = join(__dirname, '../openapi.json');
let conformance: Promise<OpenApiConformance> | undefined;
export const openApiConformance = (): Promise<OpenApiConformance> =>
  (conformance ??= OpenApiConformance.load(OPENAPI_FILE));

export interface HttpResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * A real gateway on a loopback port, with its own database, NATS prefix, log
 * file and identity provider. Specs talk to it over HTTP and drive the real
 * operator tool, exactly as clients and operators do.
 */
export class GatewayHarness {
  readonly jwks = new JwksServer();
  readonly kek = randomBytes(32).toString('base64');
  /** WEBHOOK_SECRETS_KEK: the webhook signing secrets' own key, never `kek`. */
  readonly webhookKek = randomBytes(32).toString('base64');
  readonly logFile = join(mkdtempSync(join(tmpdir(), 'sts-gw-')), 'gateway.log');
  database!: TestDatabase;
  app!: NestFastifyApplication;
  baseUrl = '';
  env: Record<string, string> = {};
  venueSim?: RunningVenueSim;
  budget?: BudgetService;
  /** The gateway's series, as its `/metrics` would show them. */
  readonly metrics = new GatewayMetrics();

  async start(options: HarnessOptions = {}): Promise<this> {
    await this.jwks.start();
    this.database = await createTestDatabase();
    if (options.venues) {
      this.venueSim = await startVenueSim({ seed: 7, tickMs: 0 });
    }
    const namespace = testNamespace();
    this.env = {
      DATABASE_URL: this.database.url,
      NATS_PREFIX: namespace.natsPrefix,
      REDIS_PREFIX: namespace.redisPrefix,
      CREDENTIALS_KEK: this.kek,
      WEBHOOK_SECRETS_KEK: this.webhookKek,
      LOG_LEVEL: 'debug',
      LOG_FILE: this.logFile,
      GATEWAY_PORT: '0',
      GATEWAY_HOST: '127.0.0.1',
      // Specs drive hundreds of requests a second with one key; api-limits.e2e sets its own.
      GATEWAY_RATE_LIMIT_PER_S: '100000',
      OPERATOR_ID: 'spec-operator',
      ...(this.venueSim ? { VENUE_SIM_URL: this.venueSim.url } : {}),
      ...Object.fromEntries(
        (options.liveDialects ?? []).flatMap((venue) => [
          [`VENUE_${venue.toUpperCase()}_MODE`, 'live'],
          [`VENUE_${venue.toUpperCase()}_ENDPOINT`, `${this.venueSim?.url}/dialects/${venue}`],
        ]),
      ),
      // Lighter live: the tests' stand-in for the signer library a deployment provides.
      ...(options.liveDialects?.includes('lighter') ? lighterSignerEnv() : {}),
      ...this.jwks.env(),
      ...options.env,
    };
    if (options.budget) {
      const budgetEnv = options.budgetEnv?.(this.env) ?? this.env;
      this.budget = await startBudgetService(loadBudgetSettings(budgetEnv), {
        venues: loadVenueRegistry(budgetEnv),
      });
    }
    this.app = await createGatewayApp(
      loadGatewayConfig(options.gatewayEnv?.(this.env) ?? this.env),
      this.metrics,
    );
    await this.app.listen(0, '127.0.0.1');
    this.baseUrl = (await this.app.getUrl()).replace('[::1]', '127.0.0.1');
    return this;
  }

  async stop(): Promise<void> {
    await this.app?.close();
    await this.budget?.close();
    await this.venueSim?.stop();
    await this.jwks.stop();
    await this.database?.drop();
  }

  async request<T = any>(
    method: string,
    path: string,
    options: { headers?: Record<string, string>; body?: unknown } = {},
  ): Promise<HttpResult<T>> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    const result = {
      status: response.status,
      body: text ? JSON.parse(text) : undefined,
      headers: response.headers,
    };
    (await openApiConformance()).assert({ method, url: path, ...result });
    return result;
  }

  /** A valid create body; override any field. */
  tradeBody(wallet: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      market: 'BTC',
      long_exchange: 'hyperliquid',
      long_wallet: wallet,
      short_exchange: 'paradex',
      short_wallet: wallet,
      target_spread: '5',
      spread_condition: 'gte',
      target_size: '0.01',
      execution_type: 'maker_taker',
      maker_leg: 'long',
      max_slippage: '0.001',
      idempotency_key: `k-${randomBytes(8).toString('hex')}`,
      ...overrides,
    };
  }

  /** The operator tool against this gateway's database. */
  readonly operator = new TestOperator(() => this.env);

  /** Runs the operator tool; throws if the command fails. */
  ops<T = any>(...argv: string[]): Promise<T> {
    return this.operator.ops<T>(...argv);
  }

  /** A user with a primary wallet and an API key holding the given scopes. */
  userWithKey(
    scopes = 'trades:read,trades:write,account:read',
    extra: string[] = [],
  ): Promise<TestUser> {
    return this.operator.userWithKey(scopes, extra);
  }

  /** A user with paper credentials on the given venues for its primary wallet, and an API key. */
  async trader(venues: string[] = ['hyperliquid', 'paradex'], scopes?: string) {
    const user = await this.userWithKey(scopes);
    const credentials: Record<string, PaperCredential> = {};
    for (const exchange of venues) {
      credentials[exchange] = await this.operator.paperCredential(
        user.userId,
        exchange,
        user.wallet,
      );
    }
    return { ...user, headers: { 'x-api-key': user.apiKey }, credentials };
  }

  /**
   * A user whose primary wallet has a private key the spec knows, funded on
   * each venue through the simulator's deposits (1,000,000 of its margin,
   * or `deposits` where given: an entry with `asset` credits that asset,
   * which margins nothing), with live credentials (the wallet signs for
   * itself) and an API key.
   */
  async liveTrader(
    venues: string[],
    scopes?: string,
    deposits: Readonly<Record<string, readonly SimDeposit[]>> = {},
  ) {
    const privateKey = generatePrivateKey();
    const wallet = privateKeyToAccount(privateKey).address.toLowerCase();
    const user = await this.operator.userWithKey(
      scopes ?? 'trades:read,trades:write,account:read',
      [],
      wallet,
    );
    const credentials: Record<string, PaperCredential> = {};
    for (const exchange of venues) {
      await onboardLiveWallet(exchange, this.venueSim!.url, { walletAddress: wallet, privateKey });
      for (const { amount, asset } of deposits[exchange] ?? [{ amount: '1000000' }]) {
        await (asset
          ? this.simControl().depositAsset(exchange, wallet, asset, amount)
          : this.simControl().deposit(exchange, wallet, amount));
      }
      // Extended: an API key of the wallet's account and the account's own stark key.
      const starkKey = `0x${(BigInt(privateKey) % 2n ** 250n).toString(16)}`;
      const signer =
        exchange === 'extended'
          ? {
              address: await issueExtendedApiKey(this.venueSim!.url, wallet, starkKey),
              privateKey: starkKey,
            }
          : exchange === 'lighter'
            ? await lighterSigner(this.venueSim!.url, wallet)
            : exchange === 'aster'
              ? await asterSigner(this.venueSim!.url, wallet, privateKey)
              : { address: wallet, privateKey };
      credentials[exchange] = await this.operator.liveCredential(
        user.userId,
        exchange,
        wallet,
        signer,
      );
    }
    return { ...user, privateKey, headers: { 'x-api-key': user.apiKey }, credentials };
  }

  private simControl(): SimControl {
    if (!this.venueSim) {
      throw new Error('the harness was started without venues');
    }
    return new SimControl(this.venueSim.url);
  }

  query<T = any>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.database.query<T>(sql, params);
  }

  logs(): string {
    try {
      return readFileSync(this.logFile, 'utf8');
    } catch {
      return '';
    }
  }
}

/** A deposit to a live trader's wallet: of its margin, or of `asset` (margining nothing). */
export interface SimDeposit {
  amount: string;
  asset?: string;
}

/** Where the gateway's and workers' Lighter live clients find the tests' stand-in signer. */
/**
 * The key that signs for an Aster wallet: the wallet's own, or, where the
 * dialect's reading refuses a main wallet signing for itself, an API wallet
 * registered for it as Aster documents (stored as the API wallet's address
 * and key, the wallet staying the user).
 */
async function asterSigner(
  simUrl: string,
  wallet: string,
  privateKey: `0x${string}`,
): Promise<{ address: string; privateKey: string }> {
  const signing = await asterLiveCredentials(simUrl, wallet, { address: wallet, privateKey });
  return { address: signing.apiKey ?? wallet, privateKey: signing.privateKey };
}

function lighterSignerEnv(): Record<string, string> {
  const { libraryPath, wasmExecPath } = lighterTestSignerFiles();
  return { LIGHTER_SIGNER_WASM: libraryPath, LIGHTER_WASM_EXEC_JS: wasmExecPath };
}

/** Lighter: an API key registered on the wallet's account; the credential names `<account>:<key index>`. */
async function lighterSigner(
  simUrl: string,
  wallet: string,
): Promise<{ address: string; privateKey: string }> {
  const credentials = await lighterApiKeyCredentials(simUrl, wallet, `gateway-harness:${wallet}`);
  return { address: credentials.apiKey!, privateKey: credentials.secret! };
}
