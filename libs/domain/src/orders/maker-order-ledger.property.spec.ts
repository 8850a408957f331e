import Big from 'big.js';
import fc from 'fast-check';
import { MakerOrderLedger, type VenueOrderReport } from './maker-order-ledger';
import { UNBOUNDED_REQUEST_SETTLE_MS } from './order-fate';

/**
 * A trade's maker orders against a model venue that loses answers, delays
 * requests and delivers fills late, in any interleaving. The trade follows
 * the ledger exactly as the worker does: it settles what the ledger says is
 * unsettled, and quotes (place, replace, cancel) only when the ledger says
 * `quote`, sizing from the fills it has counted. Whatever happens, the venue
 * never fills more than the target, and the ledger never counts less size as
 * live than the venue has resting.
 */

const EXPIRY_MS = 50;
const TARGET_LOTS = 10;

interface ModelOrder {
  id: string;
  size: number;
  filled: number;
  open: boolean;
}

type Request =
  | { op: 'place'; id: string; size: number }
  | { op: 'cancel'; id: string }
  | { op: 'replace'; previous: string; expectedFilled: number; id: string; size: number };

type Answer =
  | { op: 'place'; order: ModelOrder }
  | { op: 'cancel'; order: ModelOrder | null }
  | { op: 'replace'; previous: ModelOrder | null; placed: ModelOrder | null };

/** The venue: atomic replace guarded by the filled size, client order ids as identity, expiry. */
class ModelVenue {
  readonly orders = new Map<string, ModelOrder>();
  readonly fills: Array<{ fillId: number; id: string; size: number }> = [];
  private readonly held: Array<{ request: Request; atMs: number; expiresAtMs: number }> = [];

  execute(request: Request): Answer {
    switch (request.op) {
      case 'place': {
        const known = this.orders.get(request.id);
        if (known) {
          return { op: 'place', order: known };
        }
        const order = { id: request.id, size: request.size, filled: 0, open: true };
        this.orders.set(request.id, order);
        return { op: 'place', order };
      }
      case 'cancel': {
        const order = this.orders.get(request.id) ?? null;
        if (order) {
          order.open = false;
        }
        return { op: 'cancel', order };
      }
      case 'replace': {
        const previous = this.orders.get(request.previous) ?? null;
        if (!previous) {
          return { op: 'replace', previous: null, placed: null };
        }
        const swap = previous.open && previous.filled === request.expectedFilled;
        previous.open = false;
        if (!swap || this.orders.has(request.id)) {
          return { op: 'replace', previous, placed: null };
        }
        const placed = { id: request.id, size: request.size, filled: 0, open: true };
        this.orders.set(request.id, placed);
        return { op: 'replace', previous, placed };
      }
    }
  }

  hold(request: Request, nowMs: number, delayMs: number): void {
    this.held.push({ request, atMs: nowMs + delayMs, expiresAtMs: nowMs + EXPIRY_MS });
  }

  /** Held requests whose time came: executed if they have not expired, else refused. */
  release(nowMs: number): void {
    for (let i = 0; i < this.held.length;) {
      const entry = this.held[i];
      if (entry.atMs > nowMs) {
        i += 1;
        continue;
      }
      this.held.splice(i, 1);
      if (entry.atMs < entry.expiresAtMs) {
        this.execute(entry.request);
      }
    }
  }

  take(pick: number, lots: number): void {
    const open = [...this.orders.values()].filter((order) => order.open);
    if (open.length === 0) {
      return;
    }
    const order = open[pick % open.length];
    const size = Math.min(lots, order.size - order.filled);
    order.filled += size;
    if (order.filled === order.size) {
      order.open = false;
    }
    this.fills.push({ fillId: this.fills.length, id: order.id, size });
  }

  get totalFilled(): number {
    return [...this.orders.values()].reduce((sum, order) => sum + order.filled, 0);
  }

  /**
   * What may still rest: the resting orders' unfilled size plus what held
   * requests would add if they reached the engine in time (a replace swaps its
   * order for the new one, and places nothing unless that one is open and
   * filled exactly what the trade saw).
   */
  get mayRest(): number {
    let extra = 0;
    for (const { request, atMs, expiresAtMs } of this.held) {
      if (atMs >= expiresAtMs) {
        continue;
      } // refused when it arrives
      if (request.op === 'place' && !this.orders.has(request.id)) {
        extra += request.size;
      }
      if (request.op === 'replace') {
        const previous = this.orders.get(request.previous);
        if (previous?.open && previous.filled === request.expectedFilled) {
          extra += Math.max(0, request.size - (previous.size - previous.filled));
        }
      }
    }
    return this.restingLeaves + extra;
  }

  get restingLeaves(): number {
    return [...this.orders.values()]
      .filter((order) => order.open)
      .reduce((sum, order) => sum + order.size - order.filled, 0);
  }
}

/** How a request fares: answered, or its answer lost with the request executed, dropped or held. */
type Fate = 'answered' | 'executed_lost' | 'dropped' | 'held';

type Action =
  | { kind: 'step'; fate: Fate; delayMs: number; size: number; choice: number }
  | { kind: 'taker'; pick: number; lots: number }
  | { kind: 'deliver'; count: number }
  | { kind: 'advance'; ms: number };

const fate = fc.constantFrom<Fate>('answered', 'answered', 'executed_lost', 'dropped', 'held');
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('step' as const),
      fate,
      delayMs: fc.integer({ min: 1, max: 120 }),
      size: fc.integer({ min: 0, max: TARGET_LOTS }),
      choice: fc.integer({ min: 0, max: 3 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('taker' as const),
      pick: fc.nat(),
      lots: fc.integer({ min: 1, max: 6 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('deliver' as const),
      count: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      ms: fc.integer({ min: 1, max: 80 }),
    }),
  },
);

const report = (order: ModelOrder): VenueOrderReport => ({
  closed: !order.open,
  filledSize: new Big(order.filled),
});

/** The trade: the ledger, the fills it has counted (by fill id), and the policy of the worker. */
class ModelTrade {
  readonly ledger = new MakerOrderLedger();
  private readonly seen = new Set<number>();
  counted = 0;
  private next = 0;

  constructor(private readonly venue: ModelVenue) {}

  countFill(fill: { fillId: number; id: string; size: number }): void {
    if (this.seen.has(fill.fillId)) {
      return;
    }
    this.seen.add(fill.fillId);
    this.counted += fill.size;
    this.ledger.fill(fill.id, new Big(fill.size));
  }

  step(nowMs: number, how: Extract<Action, { kind: 'step' }>): void {
    const obligation = this.ledger.obligation(nowMs);
    switch (obligation.kind) {
      case 'settle': {
        const found = this.venue.orders.get(obligation.order.clientOrderId);
        if (found) {
          this.ledger.report(found.id, report(found));
        } else {
          this.ledger.notFound(obligation.order.clientOrderId, nowMs);
        }
        return;
      }
      case 'settle_at':
        return;
      case 'read_fills':
        for (const fill of this.venue.fills) {
          this.countFill(fill);
        }
        return;
      case 'cancel':
        return this.send({ op: 'cancel', id: obligation.order.clientOrderId }, nowMs, how);
      case 'quote': {
        const remaining = TARGET_LOTS - this.counted;
        const size = Math.min(how.size, remaining);
        const current = obligation.current;
        if (current === null) {
          if (size > 0) {
            this.send({ op: 'place', id: this.newId(), size }, nowMs, how);
          }
          return;
        }
        if (how.choice === 0 || size === 0) {
          return this.send({ op: 'cancel', id: current.clientOrderId }, nowMs, how);
        }
        if (how.choice === 1 && current.fate === 'open') {
          return this.send(
            {
              op: 'replace',
              previous: current.clientOrderId,
              expectedFilled: Number(current.seenFilled),
              id: this.newId(),
              size,
            },
            nowMs,
            how,
          );
        }
        return;
      }
    }
  }

  private newId(): string {
    this.next += 1;
    return `m${this.next}`;
  }

  private send(request: Request, nowMs: number, how: Extract<Action, { kind: 'step' }>): void {
    const ids = request.op === 'replace' ? [request.previous, request.id] : [request.id];
    if (request.op === 'place') {
      this.ledger.placing(request.id, new Big(1), new Big(request.size));
    }
    if (request.op === 'replace') {
      this.ledger.placing(request.id, new Big(1), new Big(request.size), request.previous);
    }
    if (request.op === 'cancel') {
      this.ledger.cancelling(request.id);
    }
    switch (how.fate) {
      case 'answered':
        return this.answered(this.venue.execute(request), request);
      case 'executed_lost':
        this.venue.execute(request);
        break;
      case 'dropped':
        break;
      case 'held':
        this.venue.hold(request, nowMs, how.delayMs);
        break;
    }
    this.ledger.answerLost(ids, nowMs, nowMs + EXPIRY_MS);
  }

  private answered(answer: Answer, request: Request): void {
    switch (answer.op) {
      case 'place':
        return this.ledger.report(answer.order.id, report(answer.order));
      case 'cancel':
        if (answer.order) {
          this.ledger.report(answer.order.id, report(answer.order));
        } else {
          this.ledger.notFound(request.op === 'cancel' ? request.id : '', Infinity);
        }
        return;
      case 'replace': {
        if (request.op !== 'replace') {
          return;
        }
        if (!answer.previous) {
          this.ledger.notFound(request.previous, Infinity);
          this.ledger.refused(request.id);
          return;
        }
        this.ledger.replaced(
          request.previous,
          report(answer.previous),
          request.id,
          answer.placed ? report(answer.placed) : null,
        );
      }
    }
  }
}

describe('maker order ledger under lost answers, delayed requests and late fills', () => {
  it('the venue never fills more than the target, and live size is never undercounted', () => {
    fc.assert(
      fc.property(fc.array(action, { minLength: 1, maxLength: 120 }), (actions) => {
        const venue = new ModelVenue();
        const trade = new ModelTrade(venue);
        const stream: Array<{ fillId: number; id: string; size: number }> = [];
        let nowMs = 0;
        for (const act of actions) {
          switch (act.kind) {
            case 'step':
              trade.step(nowMs, act);
              break;
            case 'taker': {
              const before = venue.fills.length;
              venue.take(act.pick, act.lots);
              stream.push(...venue.fills.slice(before));
              break;
            }
            case 'deliver':
              for (const fill of stream.splice(0, act.count)) {
                trade.countFill(fill);
              }
              break;
            case 'advance':
              nowMs += act.ms;
              venue.release(nowMs);
              break;
          }
          expect(venue.totalFilled).toBeLessThanOrEqual(TARGET_LOTS);
          // Resting plus unconfirmed size never exceeds what remains to fill.
          expect(venue.mayRest).toBeLessThanOrEqual(TARGET_LOTS - venue.totalFilled);
          expect(venue.restingLeaves).toBeLessThanOrEqual(Number(trade.ledger.exposure()));
          expect(trade.counted).toBeLessThanOrEqual(venue.totalFilled);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('a look-up that finds nothing settles an order only once its request can no longer arrive', () => {
    const ledger = new MakerOrderLedger();
    ledger.placing('m1', new Big(100), new Big(2));
    ledger.answerLost(['m1'], 1_000, 1_500);
    expect(ledger.obligation(1_000)).toMatchObject({ kind: 'settle' });
    expect(ledger.notFound('m1', 1_200)).toBe('undecided');
    expect(ledger.obligation(1_300)).toEqual({ kind: 'settle_at', atMs: 1_500 });
    expect(ledger.exposure().toFixed()).toBe('2');
    expect(ledger.obligation(1_500)).toMatchObject({ kind: 'settle' });
    expect(ledger.notFound('m1', 1_500)).toBe('never_placed');
    expect(ledger.obligation(1_500)).toEqual({ kind: 'quote', current: null });
  });

  it('a lost request its venue gives no bound for settles only after the fallback minute', () => {
    const ledger = new MakerOrderLedger();
    ledger.placing('m1', new Big(100), new Big(2));
    ledger.answerLost(['m1'], 1_000);
    const bound = 1_000 + UNBOUNDED_REQUEST_SETTLE_MS;
    expect(ledger.notFound('m1', bound - 1)).toBe('undecided');
    expect(ledger.obligation(bound - 1)).toEqual({ kind: 'settle_at', atMs: bound });
    expect(ledger.notFound('m1', bound)).toBe('never_placed');
  });

  it('fills the venue reported and the trade has not counted hold the quote until they are read', () => {
    const ledger = new MakerOrderLedger();
    ledger.placing('m1', new Big(100), new Big(4));
    ledger.report('m1', { closed: false, filledSize: new Big(0) });
    ledger.placing('m2', new Big(101), new Big(4), 'm1');
    // The venue had filled m1 fully before the replace reached it: nothing placed.
    ledger.replaced('m1', { closed: true, filledSize: new Big(4) }, 'm2', null);
    expect(ledger.obligation(0)).toEqual({ kind: 'read_fills', clientOrderIds: ['m1'] });
    expect(ledger.uncounted().toFixed()).toBe('4');
    ledger.fill('m1', new Big(4));
    expect(ledger.obligation(0)).toEqual({ kind: 'quote', current: null });
  });

  it('a replace whose answer was lost counts the larger of the two orders, and the new one is settled first', () => {
    const ledger = new MakerOrderLedger();
    ledger.placing('m1', new Big(100), new Big(3));
    ledger.report('m1', { closed: false, filledSize: new Big(1) });
    ledger.fill('m1', new Big(1));
    ledger.placing('m2', new Big(101), new Big(2), 'm1');
    ledger.answerLost(['m1', 'm2'], 0, 100);
    expect(ledger.exposure().toFixed()).toBe('2');
    const first = ledger.obligation(0);
    expect(first.kind === 'settle' && first.order.clientOrderId).toBe('m2');
    ledger.report('m2', { closed: false, filledSize: new Big(0) });
    expect(ledger.find('m1')?.fate).toBe('closed');
    expect(ledger.obligation(0)).toMatchObject({ kind: 'quote', current: { clientOrderId: 'm2' } });
  });
});
