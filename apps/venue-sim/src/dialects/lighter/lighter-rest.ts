import Big from 'big.js';
import { AnswerLost, type HttpReply, type RequestContext, type Router } from '../../api/http-kit';
import type { SignedRequest } from '../../api/order-entry';
import type { MarketState } from '../../engine/market-state';
import type { VenueEngine } from '../../engine/venue-engine';
import type { DialectDeps } from '../dialect';
import type { DialectProfile } from '../dialect-profiles';
import { limitedRoutes, type RouteTable } from '../limited-routes';
import { OverPublishedLimit, type LimitedRequest, type PublishedLimits } from '../published-limits';
import { LIGHTER, LighterAccounts, LighterError, type LighterAccount } from './lighter-accounts';
import { marketAt } from './lighter-markets';
import { addMarketRoutes } from './lighter-market-data';
import { lighterTrade } from './lighter-order-views';
import { positionFundings } from './lighter-funding';
import { LighterOrders } from './lighter-orders';
import { accountView, lighterOk as ok } from './lighter-views';
import { LIGHTER_READINGS } from './lighter-readings';
import { OVER_LIMIT } from './lighter-rate-limits';
import { LighterCancelAll } from './lighter-cancel-all';
import { readSendTx } from './lighter-tx';
import { parseTx } from './lighter-tx-types';
import { LIGHTER_TIERS, LighterAccountTiers, type LighterTier } from './lighter-account-tiers';
import { LighterVolumeQuota } from './lighter-volume-quota';
import { sendTxBatch } from './lighter-tx-batch';
import { LighterTxRunner } from './lighter-tx-runner';

const BASE = `/dialects/${LIGHTER}`;
const API = `${BASE}/api/v1`;

/** The endpoint a request names: what Lighter's weight table keys on. */
const endpointOf = (context: RequestContext): string =>
  context.pathWithQuery.split('?')[0].slice(API.length + 1);

/**
 * Lighter's REST API (`/api/v1/...`) over the engine: markets, assets and
 * books; accounts by index or L1 address (balances and positions, public as
 * on the venue); `sendTx` for signed transactions; and, with the auth token
 * ccxt's signer makes, the account's active and inactive orders, trades and
 * funding payments.
 * Every request is admitted by the Premium account's pools
 * (lighter-rate-limits.ts): a read that names no account against the IP's,
 * any other against its account's; a request about an account then goes the
 * way of the account's requests (latency, freeze, order faults).
 */
export class LighterRest {
  readonly accounts = new LighterAccounts();
  readonly orders: LighterOrders;
  readonly cancelAll: LighterCancelAll;
  /** Each L1 address's tier (lighter-account-tiers.ts): Premium unless a test says otherwise. */
  readonly tiers = new LighterAccountTiers();
  /** Each Premium address's volume quota (lighter-volume-quota.ts). */
  readonly volumeQuota: LighterVolumeQuota;
  /** Executes signed transactions, alone or in a batch (lighter-tx-runner.ts). */
  readonly runner: LighterTxRunner;
  readonly profile: DialectProfile<typeof LIGHTER_READINGS>;
  private readonly limits: PublishedLimits;

  constructor(private readonly deps: DialectDeps) {
    this.orders = new LighterOrders(deps);
    this.cancelAll = new LighterCancelAll(deps);
    this.profile = deps.profiles.of(LIGHTER, LIGHTER_READINGS);
    this.limits = deps.limits.of(LIGHTER);
    this.volumeQuota = new LighterVolumeQuota(
      (wallet) => this.tradedVolume(wallet),
      (wallet) => this.tiers.of(wallet) === 'premium',
    );
    this.runner = new LighterTxRunner(this.orders, this.cancelAll, this.volumeQuota, this.profile);
  }

  addRoutes(router: Router): void {
    // Reads about no account: the endpoint's weight against the IP's L1.
    const anonymous = limitedRoutes(router, {
      limits: this.limits,
      requestOf: (context) => ({ kind: endpointOf(context) }),
      overLimit: () => OVER_LIMIT,
    });
    addMarketRoutes(anonymous, API, this.deps.world);
    this.addAccountRoutes(router, anonymous);
    router.add('POST', `${API}/sendTx`, (context) => this.sendTx(context));
    router.add('POST', `${API}/sendTxBatch`, (context) => sendTxBatch(this, context));
    this.addSimRoutes(router);
    this.addAuthenticatedReads(router);
  }

  /** Public account reads (by L1 address or index) and an API key's next nonce. */
  private addAccountRoutes(router: Router, anonymous: RouteTable): void {
    anonymous.add('GET', `${API}/accountsByL1Address`, (context) => {
      const account = this.accounts.ofWallet(context.query.get('l1_address') ?? '');
      if (!account) {
        return new LighterError(400, 21100, 'account not found').reply();
      }
      return ok({
        l1_address: account.wallet,
        sub_accounts: [
          { code: 0, account_type: 0, index: account.index, l1_address: account.wallet },
        ],
      });
    });
    router.add('GET', `${API}/account`, (context) =>
      this.answer(() => {
        if (context.query.get('by') !== 'index') {
          throw new LighterError(400, 20001, 'the simulated venue reads accounts by index');
        }
        const account = this.accounts.ofIndex(context.query.get('value'));
        return this.deps.orders.execute(
          this.request(context, account, 'account'),
          undefined,
          (venue) =>
            ok({
              total: 1,
              accounts: [
                accountView(venue, account, this.deps.funding.holdings(LIGHTER, account.wallet)),
              ],
            }),
        );
      }),
    );
    router.add('GET', `${API}/nextNonce`, (context) =>
      this.answer(async () => {
        const account = this.accounts.ofIndex(context.query.get('account_index'));
        const key = this.accounts.apiKey(account, context.query.get('api_key_index'));
        this.limits.admit({ kind: 'nextNonce' }, context.sourceAddress, account.wallet);
        return ok({ nonce: key.nonces.next() });
      }),
    );
  }

  /** The simulator's own: registering an API key, the transactions an account sent. */
  private addSimRoutes(router: Router): void {
    router.add('POST', `${BASE}/_sim/api-keys`, (context) =>
      this.answer(async () => {
        const body = JSON.parse(context.rawBody || '{}') as Record<string, unknown>;
        const account = this.accounts.register(
          String(body['l1_address'] ?? ''),
          Number(body['api_key_index']),
          String(body['public_key'] ?? ''),
        );
        return {
          status: 201,
          body: { account_index: account.index, api_key_index: Number(body['api_key_index']) },
        };
      }),
    );
    router.add('POST', `${BASE}/_sim/volume-quota`, (context) =>
      this.answer(async () => this.setVolumeQuota(context.rawBody)),
    );
    router.add('GET', `${BASE}/_sim/volume-quota`, (context) => {
      const wallet = context.query.get('l1_address') ?? '';
      return {
        status: 200,
        body: {
          l1_address: wallet.toLowerCase(),
          remaining: this.volumeQuota.remaining(wallet),
          next_free_at_ms: this.volumeQuota.nextFreeAtMs(wallet),
        },
      };
    });
    router.add('POST', `${BASE}/_sim/account-tier`, (context) =>
      this.answer(async () => {
        const body = JSON.parse(context.rawBody || '{}') as Record<string, unknown>;
        const wallet = String(body['l1_address'] ?? '');
        const tier = body['tier'] as LighterTier;
        if (!/^0x[0-9a-fA-F]{40}$/.test(wallet) || !LIGHTER_TIERS.includes(tier)) {
          throw new LighterError(400, 20001, 'l1_address and tier (premium, standard) are needed');
        }
        this.tiers.set(wallet, tier);
        return { status: 200, body: { l1_address: wallet.toLowerCase(), tier } };
      }),
    );
    router.add('GET', `${BASE}/_sim/txs`, (context) => {
      const account = Number(context.query.get('account'));
      return { status: 200, body: { txs: this.runner.loggedOf(account) } };
    });
  }

  /**
   * Reads with the auth token ccxt's signer makes: the tier, active and
   * inactive orders, funding payments (lighter-funding.ts), trades.
   */
  private addAuthenticatedReads(router: Router): void {
    const read = (
      path: string,
      answer: (venue: VenueEngine, account: LighterAccount, context: RequestContext) => unknown,
    ) =>
      router.add('GET', `${API}/${path}`, (context) =>
        this.answer(() => {
          // The token in the `authorization` header (ccxt's way) or the `auth` parameter (the SDK's).
          const account = this.accounts.ofAuthToken(
            context.headers['authorization'] ?? context.query.get('auth') ?? undefined,
          );
          if (Number(context.query.get('account_index')) !== account.index) {
            throw new LighterError(403, 20013, 'the auth token is not for this account');
          }
          return this.deps.orders.execute(
            this.request(context, account, path),
            undefined,
            (venue) => ok(answer(venue, account, context) as Record<string, unknown>),
          );
        }),
      );
    const marketOf = (venue: VenueEngine, context: RequestContext): MarketState => {
      const market = marketAt(venue, Number(context.query.get('market_id')));
      if (!market) {
        throw new LighterError(400, 21602, 'invalid market index');
      }
      return market;
    };
    read('accountLimits', (_venue, account) => this.tiers.limitsView(account.wallet));
    read('accountActiveOrders', (venue, account, context) => ({
      orders: this.orders.active(venue, account, marketOf(venue, context)),
    }));
    read('accountInactiveOrders', (venue, account, context) => ({
      orders: this.orders.inactive(
        venue,
        account,
        marketOf(venue, context),
        Math.min(Number(context.query.get('limit') ?? 100), 100),
      ),
    }));
    read('positionFunding', (venue, account, context) =>
      positionFundings(venue, venue.funding.paymentsOf(account.wallet), context.query),
    );
    read('trades', (venue, account, context) => {
      const marketId = context.query.get('market_id');
      const market = marketId === null ? undefined : marketOf(venue, context);
      const limit = Math.min(Number(context.query.get('limit') ?? 100), 100);
      return {
        trades: venue.registry
          .fillsSince(account.wallet, 0)
          .filter((fill) => market === undefined || fill.symbol === market.spec.symbol)
          .slice(-limit)
          .reverse()
          .map((fill) => lighterTrade(venue, fill, account.index)),
      };
    });
  }

  /**
   * `POST /api/v1/sendTx` (multipart `tx_type`, `tx_info`): the transaction's
   * fields are checked (layout, attributes, API key, signature form, no
   * integrator), its nonce reserved, then it executes. Only a transaction the
   * venue accepts uses its nonce; one refused gives it back.
   */
  private sendTx(context: RequestContext): Promise<HttpReply> {
    return this.answer(async () => {
      const { txType, txInfo } = await readSendTx(context.rawBody, context.headers['content-type']);
      const tx = parseTx(txType, txInfo);
      const account = this.accounts.ofIndex(tx.accountIndex);
      const key = this.accounts.apiKey(account, tx.apiKeyIndex);
      const request = this.request(context, account, { kind: 'sendTx' });
      const prepared = this.runner.prepare(account, key, { txType, txInfo, tx });
      const { reply, accepted } = await this.runner.execute(request, prepared);
      return accepted && reply.status === 200
        ? {
            ...reply,
            body: { ...(reply.body as object), ...this.volumeQuota.answerFields(prepared.claim) },
          }
        : reply;
    });
  }

  /**
   * `POST /dialects/lighter/_sim/volume-quota {initial?, l1_address?,
   * usdc_per_quota?}`: the quota every address (or one) starts with, and the
   * volume that earns one more, so a test reaches the end in a few orders.
   */
  private setVolumeQuota(raw: string): HttpReply {
    const body = JSON.parse(raw || '{}') as Record<string, unknown>;
    const whole = (value: unknown, min: number) =>
      value === undefined || (Number.isInteger(value) && (value as number) >= min);
    const wallet = body['l1_address'];
    if (
      !whole(body['initial'], 0) ||
      !whole(body['usdc_per_quota'], 1) ||
      (wallet !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(String(wallet)))
    ) {
      throw new LighterError(
        400,
        20001,
        'initial (whole, >= 0), usdc_per_quota (whole, >= 1) and l1_address (an address) are optional',
      );
    }
    this.volumeQuota.configure({
      ...(body['initial'] !== undefined ? { initial: body['initial'] as number } : {}),
      ...(wallet !== undefined ? { wallet: String(wallet) } : {}),
      ...(body['usdc_per_quota'] !== undefined
        ? { usdcPerQuota: body['usdc_per_quota'] as number }
        : {}),
    });
    return { status: 200, body: { ok: true } };
  }

  /** USDC an address has traded here, both sides (what earns it volume quota). */
  private tradedVolume(wallet: string): Big {
    const venue = this.deps.world().venue(LIGHTER);
    return venue.registry.fillsSince(wallet, 0).reduce((sum, fill) => {
      const market = venue.market(fill.symbol);
      return sum.plus(market.price.toBig(fill.priceTicks).times(market.lot.toBig(fill.lots)));
    }, new Big(0));
  }

  /** A request about a funded account, admitted by that account's pools as `limited`. */
  request(
    context: RequestContext,
    account: LighterAccount,
    limited: LimitedRequest | string,
  ): SignedRequest {
    if (!this.deps.funding.account(LIGHTER, account.wallet)) {
      throw new LighterError(400, 21100, 'account not found');
    }
    this.limits.admit(
      typeof limited === 'string' ? { kind: limited } : limited,
      context.sourceAddress,
      account.wallet,
    );
    return {
      venueId: LIGHTER,
      accountId: account.wallet,
      channel: { cut: context.cutConnection, mute: () => undefined },
      limits: 'published',
    };
  }

  async answer(act: () => Promise<HttpReply>): Promise<HttpReply> {
    try {
      return await act();
    } catch (error) {
      if (error instanceof AnswerLost) {
        throw error;
      }
      if (error instanceof LighterError) {
        return error.reply();
      }
      if (error instanceof SyntaxError) {
        return new LighterError(400, 20001, 'invalid body').reply();
      }
      if (error instanceof OverPublishedLimit) {
        return OVER_LIMIT;
      }
      throw error;
    }
  }
}
