import { connectNats, createLogger, type NatsConnection } from '@sts/platform';
import { testNamespace } from '@sts/testing';
import type { OfferResult } from '../fleet/trade-fleet';
import { AccountAffinity } from './account-affinity';

const TRADE = '0b5f6a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
const logger = createLogger('spec', 'silent');

/**
 * A worker's end of `trade.offer` over the machine's NATS: what the worker a
 * start command reached does with the answer of the worker running the
 * trade's maker account, or with its silence.
 */
describe('AccountAffinity over NATS', () => {
  let nats: NatsConnection;
  const { natsPrefix } = testNamespace();
  const listening: AccountAffinity[] = [];

  beforeAll(async () => {
    nats = await connectNats({ url: 'nats://127.0.0.1:4222', name: 'account-affinity-spec' });
  });

  afterEach(() => {
    listening.splice(0).forEach((affinity) => affinity.stop());
  });

  afterAll(() => nats.drain());

  /** A worker whose fleet answers `result` to every offer, and the trades offered to it. */
  function worker(workerId: string, owners: string[], result: OfferResult = 'acquired') {
    const offered: string[] = [];
    const outcomes: string[] = [];
    const affinity = new AccountAffinity(
      nats,
      natsPrefix,
      workerId,
      { makerAccountOwners: () => Promise.resolve(owners) },
      {
        offer: (tradeId: string) => {
          offered.push(tradeId);
          return Promise.resolve(result);
        },
      },
      { recordStartOffer: (outcome) => outcomes.push(outcome) },
      logger,
    );
    return { affinity, offered, outcomes };
  }

  const offer = { command: { trade_id: TRADE, user_id: 'u-1' }, correlationId: 'c-1' };

  it('hands the trade to the worker running its account, which claims it from its own fleet', async () => {
    const owner = worker('w-owner', []);
    owner.affinity.listen();
    listening.push(owner.affinity);
    const reached = worker('w-reached', ['w-owner']);
    expect(await reached.affinity.forward(offer)).toBe('acquired');
    expect(owner.offered).toEqual([TRADE]);
    expect(reached.outcomes).toEqual(['taken_there']);
  });

  it('runs the trade itself when that worker has no room', async () => {
    const owner = worker('w-owner', [], 'full');
    owner.affinity.listen();
    listening.push(owner.affinity);
    const reached = worker('w-reached', ['w-owner']);
    expect(await reached.affinity.forward(offer)).toBeNull();
    expect(reached.outcomes).toEqual(['run_here']);
  });

  it('runs the trade itself at once when that worker is gone (its lease not yet expired)', async () => {
    const reached = worker('w-reached', ['w-gone']);
    const startedAt = Date.now();
    expect(await reached.affinity.forward(offer)).toBeNull();
    // NATS answers "no responders" at once: the start does not wait out the 1 s timeout.
    expect(Date.now() - startedAt).toBeLessThan(500);
    expect(reached.outcomes).toEqual(['run_here']);
  });

  // A worker handing its trades over stops answering first: the account's next owner takes it.
  it('asks the next worker of the account when the first is gone or full', async () => {
    const full = worker('w-full', [], 'full');
    const next = worker('w-next', []);
    [full, next].forEach(({ affinity }) => {
      affinity.listen();
      listening.push(affinity);
    });
    const reached = worker('w-reached', ['w-gone', 'w-full', 'w-next']);
    expect(await reached.affinity.forward(offer)).toBe('acquired');
    expect({ full: full.offered, next: next.offered }).toEqual({ full: [TRADE], next: [TRADE] });
    expect(reached.outcomes).toEqual(['taken_there']);
  });

  it('keeps the trade when it runs some of the account too, or nobody does', async () => {
    const other = worker('w-other', []);
    other.affinity.listen();
    listening.push(other.affinity);
    expect(await worker('w-reached', ['w-other', 'w-reached']).affinity.forward(offer)).toBeNull();
    expect(await worker('w-reached', []).affinity.forward(offer)).toBeNull();
    expect(other.offered).toEqual([]);
  });

  it('a worker id with dots and spaces still has a subject of its own', async () => {
    const owner = worker('host.example.com 7', []);
    owner.affinity.listen();
    listening.push(owner.affinity);
    expect(await worker('w-reached', ['host.example.com 7']).affinity.forward(offer)).toBe(
      'acquired',
    );
  });
});
