import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StsClient, type operations, type TradeStatus } from '../src';

/** What the generated types say GET /trades' `status` filter is (the OpenAPI document's schema). */
type StatusFilter = NonNullable<operations['listTrades']['parameters']['query']>['status'];

/**
 * GET /api/v1/trades' `status` filter as the OpenAPI document describes it:
 * an array of the status enum (the generated types), sent as one parameter
 * with the statuses comma-separated (style form, explode false), the way the
 * gateway reads it.
 */
describe('listTrades: the status filter', () => {
  it('is typed as a list of statuses, and sent as one comma-separated parameter', async () => {
    const live: StatusFilter = ['pending', 'validating', 'active', 'paused', 'recovering'];
    // @ts-expect-error: a status outside the enum (the type was `string` before).
    const unknown: StatusFilter = ['bogus'];
    expect(unknown).toHaveLength(1);
    const urls: string[] = [];
    const server = createServer((request, response) => {
      urls.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('[]');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const sts = new StsClient({
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      });
      await sts.listTrades({ status: live });
      await sts.listTrades({ status: 'canceled' satisfies TradeStatus, limit: 1, before: 'a b' });
      await sts.listTrades();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(urls).toEqual([
      '/api/v1/trades?status=pending,validating,active,paused,recovering',
      '/api/v1/trades?status=canceled&limit=1&before=a%20b',
      '/api/v1/trades',
    ]);
  });
});
