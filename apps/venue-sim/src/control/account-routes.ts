import Big from 'big.js';
import { HttpFailure } from '../api/http-kit';
import { parseCredentials } from '../api/venue-requests';
import { wireFill, wireOrder, wirePositions } from '../api/wire-format';
import { ok, type ControlDeps, type ControlRoutes } from './control-kit';

/** Accounts as the venue sees them: registration by the operator, request counts, orders, fills, positions. */
export function addAccountRoutes(routes: ControlRoutes): void {
  const { deps } = routes;
  routes
    .add('POST', '/control/venues/:venue/accounts', (context) => {
      const raw = routes.body(context);
      const id = routes.venueId(context);
      const { accountId, created } = deps.directory.register(id, parseCredentials(raw), true);
      const account = deps.world().venue(id).account(accountId);
      if (typeof raw['collateral'] === 'string') {
        account.collateral = new Big(raw['collateral']);
      }
      return { status: created ? 201 : 200, body: { account: accountId, created } };
    })
    .add('POST', '/control/venues/:venue/deposits', (context) =>
      ok(deposit(deps.funding, routes.venueId(context), routes.body(context))),
    )
    .add('GET', '/control/venues/:venue/request-counts', (context) => {
      const wallet = context.query.get('wallet');
      if (!wallet) {
        throw new HttpFailure(400, 'invalid_request', 'wallet is required');
      }
      return ok(deps.limiter.report(routes.venueId(context), wallet.toLowerCase()));
    })
    .add('GET', '/control/venues/:venue/accounts/:wallet/fills', (context) => {
      const venue = deps.world().venue(routes.venueId(context));
      const since = Number(context.query.get('since') ?? 0);
      const fills = venue.registry.fillsSince(context.params['wallet'].toLowerCase(), since);
      return ok({ fills: fills.map((fill) => wireFill(venue, fill)) });
    })
    .add('GET', '/control/venues/:venue/accounts/:wallet/orders', (context) => {
      const venue = deps.world().venue(routes.venueId(context));
      const status = context.query.get('status');
      if (status !== null && status !== 'open') {
        throw new HttpFailure(400, 'invalid_request', 'status must be open when given');
      }
      const accountId = context.params['wallet'].toLowerCase();
      const orders =
        status === 'open' ? venue.registry.open(accountId) : venue.registry.ordersOf(accountId);
      return ok({ orders: orders.map((order) => wireOrder(venue, order)) });
    })
    .add('GET', '/control/venues/:venue/accounts/:wallet/positions', (context) => {
      const venue = deps.world().venue(routes.venueId(context));
      return ok({ positions: wirePositions(venue, context.params['wallet'].toLowerCase()) });
    });
}

/**
 * `POST /control/venues/<v>/deposits {wallet, amount, asset?}`: funds the
 * wallet's margin, or, naming an `asset`, credits that asset (listed in the
 * dialects' balances, margining nothing).
 */
function deposit(funding: ControlDeps['funding'], venueId: string, raw: Record<string, unknown>) {
  const { wallet, amount, asset } = raw;
  if (typeof wallet !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(wallet)) {
    throw new HttpFailure(400, 'invalid_request', 'wallet must be a 0x-prefixed address');
  }
  if (typeof amount !== 'string' || !/^\d{1,15}(\.\d{1,8})?$/.test(amount) || Number(amount) <= 0) {
    throw new HttpFailure(400, 'invalid_request', 'amount must be a positive decimal string');
  }
  if (asset === undefined) {
    return funding.deposit(venueId, wallet, amount);
  }
  if (typeof asset !== 'string' || !/^[A-Z0-9]{2,12}$/.test(asset)) {
    throw new HttpFailure(400, 'invalid_request', 'asset must be an upper-case asset name');
  }
  return funding.depositAsset(venueId, wallet, asset, amount);
}
