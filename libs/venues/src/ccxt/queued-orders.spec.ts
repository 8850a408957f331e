import type { Order } from 'ccxt';
import { awaitQueued, QUEUED_ACK, QUEUE_SETTLE_MS } from './queued-orders';

const queued = { id: '1', clientOrderId: 'c1', info: { status: 'NEW' } } as unknown as Order;
const paradex = QUEUED_ACK.get('paradex')!.readShowsFate;

describe('awaitQueued: reading a queued order until the venue acted on it', () => {
  it('sees a fate that comes at once on the first reads', async () => {
    let reads = 0;
    const open = { ...queued, info: { status: 'OPEN' } } as unknown as Order;
    const order = await awaitQueued(
      queued,
      () => Promise.resolve(++reads < 2 ? queued : open),
      paradex,
    );
    expect(order.info.status).toBe('OPEN');
    expect(reads).toBe(2);
  });

  it("stays inside Paradex's 600 reads a minute when the order stays queued the whole wait", async () => {
    const times: number[] = [];
    const started = Date.now();
    const order = await awaitQueued(
      queued,
      () => {
        times.push(Date.now() - started);
        return Promise.resolve(queued);
      },
      paradex,
    );
    expect(order.info.status).toBe('NEW');
    // A read every 20 ms made 250 in the wait; backing off, at most 13.
    expect(times.length).toBeLessThanOrEqual(13);
    expect(times.length).toBeGreaterThanOrEqual(8);
    expect(times[times.length - 1]).toBeLessThanOrEqual(QUEUE_SETTLE_MS + 50);
    // No two reads closer than the first pause.
    for (let i = 1; i < times.length; i += 1) {
      expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(15);
    }
  }, 10_000);
});
