import { existsSync } from 'node:fs';
import type { Egress, VenueConfig } from '@sts/domain';
import type { Logger } from '@sts/platform';
import { createCcxtExchange, type CcxtExchangeOptions } from '../ccxt/ccxt-exchange';
import type { CcxtExchangeLike } from '../ccxt/ccxt-exchange-like';
import type { LiveCredentials } from '../ccxt/live-credentials';
import { CcxtMarketCache } from '../ccxt/ccxt-market-cache';
import { CcxtVenueClient } from '../ccxt/ccxt-venue-client';
import { VenueSetupError } from '../errors';
import type { FrameCoalescer } from '../common/frame-coalescer';
import type { VenueMarket } from '../model/market';
import { PaperHttp } from '../paper/paper-http';
import { PaperVenueClient } from '../paper/paper-venue-client';
import type { WireMarket } from '../paper/protocol';
import { toVenueMarket } from '../paper/wire-mapping';
import type { VenueClient } from '../venue-client';

export const DEFAULT_VENUE_SIM_URL = 'http://127.0.0.1:7100';

/** An exchange credential as the operator stored it (decrypted by the caller, never logged). */
export interface StoredVenueCredential {
  apiKey: string;
  apiSecret: string;
  wallet: string;
}

export interface VenueClientOptions {
  env?: Record<string, string | undefined>;
  logger?: Logger;
  /** Levels per side in `book` events (paper mode): 1 for a reader of the touch only. */
  bookDepth?: number;
  /** Paper mode: lets order frames sent in one burst share writes. */
  coalescer?: FrameCoalescer;
  /**
   * Live mode: the egress the account's requests leave from (`egressOf` of
   * the deployment's plan; `publicEgress` for a client of no account). Paper
   * clients ignore it: the simulator's paper protocol limits per account only.
   */
  egress?: Egress;
  /** Live mode: hears every HTTP request the client sends, its kind, weight and whether a call paid it. */
  onRequest?: CcxtExchangeOptions['onRequest'];
  /** Live mode only: how to build the ccxt exchange (tests pass a fake). */
  createExchange?: (
    venue: string,
    credentials: LiveCredentials,
    options: CcxtExchangeOptions,
  ) => Promise<CcxtExchangeLike>;
}

/**
 * A paper venue's base URL: its registry `endpoint`, else
 * `${VENUE_SIM_URL ?? http://127.0.0.1:7100}/venues/<id>`.
 */
export function paperBaseUrl(
  config: VenueConfig,
  env: Record<string, string | undefined> = process.env,
): string {
  if (config.endpoint) {
    return config.endpoint.replace(/\/+$/, '');
  }
  return `${(env['VENUE_SIM_URL'] || DEFAULT_VENUE_SIM_URL).replace(/\/+$/, '')}/venues/${config.id}`;
}

/**
 * What ccxt gets from a stored credential. Venues name their secrets
 * differently (a signer private key for hyperliquid, paradex, lighter and
 * aster; an API key plus a Stark key for extended), so the secret is offered
 * both as `secret` and as `privateKey` and ccxt takes what its adapter needs.
 */
export function liveCredentials(credential: StoredVenueCredential): LiveCredentials {
  return {
    apiKey: credential.apiKey,
    secret: credential.apiSecret,
    privateKey: credential.apiSecret,
    walletAddress: credential.wallet,
  };
}

/**
 * Lighter's signer for ccxt, which its npm package does not ship: ccxt 4.5.84
 * signs Lighter transactions with a Go library compiled to WebAssembly
 * (`lighter-signer.wasm`, built for that ccxt version) run by Go's
 * `wasm_exec.js`. The operator provides both files (docs/live-venues.md: "Lighter's
 * signer"); without them a Lighter live trade is refused in pre-flight with
 * this error, before anything is sent.
 */
export function lighterSigner(env: Record<string, string | undefined>): {
  libraryPath: string;
  wasmExecPath: string;
} {
  const libraryPath = env['LIGHTER_SIGNER_WASM'];
  const wasmExecPath = env['LIGHTER_WASM_EXEC_JS'];
  const missing = [
    !libraryPath || !existsSync(libraryPath) ? 'LIGHTER_SIGNER_WASM (lighter-signer.wasm)' : '',
    !wasmExecPath || !existsSync(wasmExecPath) ? "LIGHTER_WASM_EXEC_JS (Go's wasm_exec.js)" : '',
  ].filter(Boolean);
  if (missing.length > 0) {
    throw new VenueSetupError(
      'lighter',
      `the Lighter signer is not installed on this deployment: set ${missing.join(' and ')} to existing files built for ccxt 4.5.84`,
    );
  }
  return { libraryPath: libraryPath!, wasmExecPath: wasmExecPath! };
}

/** The VenueClient the registry asks for: paper (the simulator) or live (ccxt). Not yet connected. */
export async function createVenueClient(
  config: VenueConfig,
  credential: StoredVenueCredential,
  options: VenueClientOptions = {},
): Promise<VenueClient> {
  switch (config.mode) {
    case 'paper':
      return new PaperVenueClient({
        venue: config.id,
        baseUrl: paperBaseUrl(config, options.env),
        credentials: credential,
        logger: options.logger,
        ...(options.bookDepth !== undefined ? { bookDepth: options.bookDepth } : {}),
        ...(options.coalescer ? { coalescer: options.coalescer } : {}),
      });
    case 'live': {
      const signer =
        config.id === 'lighter' ? lighterSigner(options.env ?? process.env) : undefined;
      const exchange = await (options.createExchange ?? createCcxtExchange)(
        config.id,
        liveCredentials(credential),
        {
          endpoint: config.endpoint,
          requestCosts: config.requestCosts,
          ...(options.egress ? { egress: options.egress } : {}),
          ...(signer ? { options: signer } : {}),
          ...(options.onRequest ? { onRequest: options.onRequest } : {}),
        },
      );
      return new CcxtVenueClient({
        venue: config.id,
        exchange,
        logger: options.logger,
        // A market-data client has no secret: public books and markets only.
        authenticated: credential.apiSecret !== '',
        requestCosts: config.requestCosts,
        ...(options.bookDepth !== undefined ? { bookDepth: options.bookDepth } : {}),
      });
    }
  }
}

/**
 * A venue's market universe without any credential (both the simulator's
 * markets endpoint and ccxt's market listing are public). For the gateway's
 * GET /api/v1/markets, which caches and refreshes it.
 */
export async function fetchVenueMarkets(
  config: VenueConfig,
  options: VenueClientOptions & { timeoutMs?: number } = {},
): Promise<VenueMarket[]> {
  if (config.mode === 'paper') {
    const http = new PaperHttp({
      venue: config.id,
      baseUrl: paperBaseUrl(config, options.env),
      credentials: { apiKey: '', apiSecret: '', wallet: '' },
      requestTimeoutMs: options.timeoutMs ?? 5_000,
    });
    try {
      const { markets } = await http.call<{ markets: WireMarket[] }>('GET', '/markets', {
        signed: false,
      });
      return markets.map(toVenueMarket);
    } finally {
      http.close();
    }
  }
  const exchange = await (options.createExchange ?? createCcxtExchange)(
    config.id,
    {},
    {
      endpoint: config.endpoint,
      ...(options.egress ? { egress: options.egress } : {}),
    },
  );
  try {
    return await new CcxtMarketCache(exchange, config.id).load();
  } finally {
    await exchange.close();
  }
}
