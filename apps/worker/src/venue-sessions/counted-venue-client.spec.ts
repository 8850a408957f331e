import { OrderRejectedError, VenueNetworkError } from '@sts/venues';
import { ScriptedDeadMan, ScriptedVenue } from '../../test/support/scripted-venue';
import { countedVenueClient, type VenueRequestCount } from './counted-venue-client';
import { VenueAnswerTimes } from './venue-answer-times';

/**
 * The counted client on jest's clock: every request counted, 429s counted,
 * and the venue's answer times recorded for the hedge's doubt bound (an
 * answer or a refusal counts, a request lost without an answer does not).
 */
describe('countedVenueClient', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function counted(): {
    venue: ScriptedVenue;
    client: ReturnType<typeof countedVenueClient>;
    answers: VenueAnswerTimes;
    counts: Map<string, number>;
  } {
    const venue = new ScriptedVenue('paradex');
    const answers = new VenueAnswerTimes();
    const counts = new Map<string, number>();
    const counter = {
      venueRequestCount: (exchange: string, operation: string): VenueRequestCount => ({
        request: () => counts.set(operation, (counts.get(operation) ?? 0) + 1),
        rateLimited: () =>
          counts.set(`${operation}:429`, (counts.get(`${operation}:429`) ?? 0) + 1),
      }),
    };
    return {
      venue,
      client: countedVenueClient(venue, 'paradex', counter, answers),
      answers,
      counts,
    };
  }

  const order = {
    clientOrderId: 'c1',
    symbol: 'BTC-USD-PERP',
    side: 'sell' as const,
    price: '100',
    size: '0.1',
  };

  it("counts the dead-man switch's armings and disarmings as requests; none stays none", async () => {
    const { client: plain } = counted();
    expect(plain.deadManSwitch).toBeNull();
    const venue = new ScriptedVenue('hyperliquid');
    venue.deadManSwitch = new ScriptedDeadMan(5_000);
    const counts = new Map<string, number>();
    const client = countedVenueClient(venue, 'hyperliquid', {
      venueRequestCount: (_exchange, operation) => ({
        request: () => counts.set(operation, (counts.get(operation) ?? 0) + 1),
        rateLimited: () => undefined,
      }),
    });
    expect(client.deadManSwitch?.minTimeoutMs).toBe(5_000);
    await client.deadManSwitch?.arm(15_000);
    await client.deadManSwitch?.arm(15_000);
    await client.deadManSwitch?.disarm();
    expect(counts.get('dead_man_arm')).toBe(2);
    expect(counts.get('dead_man_disarm')).toBe(1);
  });

  it('times answers and refusals, and a slow venue raises the bound', async () => {
    const { venue, client, answers, counts } = counted();
    for (let i = 0; i < 10; i += 1) {
      const answered = client.openOrders('BTC-USD-PERP');
      await jest.advanceTimersByTimeAsync(400);
      venue.next('openOrders').answer([]);
      await answered;
    }
    expect(counts.get('openOrders')).toBe(10);
    expect(answers.expectedMs('paradex')).toBe(800);

    // A refusal is an answer too: 350 ms is within the newest ten.
    const refused = client.placeIoc(order);
    await jest.advanceTimersByTimeAsync(350);
    venue.next('placeIoc').fail(new OrderRejectedError('paradex', 'margin'));
    await expect(refused).rejects.toBeInstanceOf(OrderRejectedError);
    expect(answers.expectedMs('paradex')).toBe(800);
  });

  it('does not let requests lost without an answer train the bound up', async () => {
    const { venue, client, answers } = counted();
    for (let i = 0; i < 5; i += 1) {
      const lost = client.placeIoc(order);
      await jest.advanceTimersByTimeAsync(5_000);
      venue.next('placeIoc').fail(new VenueNetworkError('paradex', 'timeout'));
      await expect(lost).rejects.toBeInstanceOf(VenueNetworkError);
    }
    expect(answers.expectedMs('paradex')).toBe(250);
    expect(answers.bounds()).toEqual([]);
  });

  it('counts the reads the client sends of its own accord for an order', () => {
    const { venue, counts } = counted();
    venue.emit('unpaid', { clientOrderId: 'c1', requests: 1, tokens: 1 });
    venue.emit('unpaid', { clientOrderId: 'c1', requests: 2, tokens: 2 });
    expect(counts.get('fill_read')).toBe(3);
  });
});
