import fc from 'fast-check';
import WebSocket from 'ws';
import {
  errorBodyProblem,
  fuzzSeed,
  headerSafe,
  hostileHeaderValue,
  hostileJsonText,
  hostileKey,
  hostilePathSegment,
  hostileString,
  hostileValue,
} from '@sts/testing/fuzz';
import type { RunningNotifier } from '../src/bootstrap';
import { NotifierHarness, type TestUser } from './notifier-harness';
import { asyncApi, TestClient } from './ws-client';

/**
 * Schema-driven fuzzing of the notifier: client messages on an
 * authenticated socket, first messages on an unauthenticated one, and
 * upgrade requests with broken credentials or paths. Every answer is a frame
 * of the protocol, errors in the `{type:"error", error, code}` shape with
 * nothing of the inside; a live socket survives every bad message.
 *
 * The seed is printed; FUZZ_SEED=<seed> replays a run, FUZZ_WS_RUNS sets the count.
 */
const SEED = fuzzSeed();
const RUNS = Number(process.env['FUZZ_WS_RUNS'] ?? 2000);
const FIRST_MESSAGE_RUNS = Math.ceil(RUNS / 5);
const HANDSHAKE_RUNS = Math.ceil(RUNS / 4);
const MAX_MESSAGE_BYTES = 16 * 1024;

jest.setTimeout(120_000);

/** Fields a protocol error frame may carry besides error, code and reason. */
const FRAME_FIELDS = ['type', 'id', 'op', 'params'];
const REPLY_TYPES = new Set(['error', 'pong', 'subscribed', 'unsubscribed', 'authenticated']);

function frameProblem(frame: unknown, text: string, sent = ''): string | null {
  const type = (frame as { type?: unknown })?.type;
  if (typeof type !== 'string' || !REPLY_TYPES.has(type)) {
    return `unexpected frame ${text.slice(0, 200)}`;
  }
  return type === 'error' ? errorBodyProblem(frame, text, FRAME_FIELDS, sent) : null;
}

describe('fuzzing the notifier WebSocket', () => {
  const harness = new NotifierHarness();
  let notifier: RunningNotifier;
  let alice: TestUser;
  let bob: TestUser;
  let tradeId = '';

  beforeAll(async () => {
    await harness.start({ LOG_LEVEL: 'warn' });
    notifier = await harness.addReplica();
    alice = await harness.user();
    bob = await harness.user();
    tradeId = await harness.trade(alice, 'active');
  });
  afterAll(() => harness.stop());

  const bases = (): Array<Record<string, unknown>> => [
    { op: 'subscribe', subscription: 'trades', params: { trade_id: tradeId } },
    { op: 'unsubscribe', subscription: 'trades', params: { trade_id: tradeId } },
    { op: 'subscribe', subscription: 'trades' },
    { op: 'ping', id: 1 },
    { op: 'auth', api_key: alice.apiKey },
  ];

  type Message =
    | { kind: 'field'; base: number; field: string; value: unknown }
    | { kind: 'params'; base: number; field: string; value: unknown }
    | { kind: 'drop'; base: number; field: number }
    | { kind: 'extra'; base: number; key: string; value: unknown }
    | { kind: 'value'; value: unknown }
    | { kind: 'text'; text: string }
    | { kind: 'binary'; bytes: Uint8Array }
    | { kind: 'foreign_key'; base: number };

  const message: fc.Arbitrary<Message> = fc.oneof(
    fc.record({
      kind: fc.constant('field' as const),
      base: fc.nat(),
      field: fc.constantFrom('op', 'id', 'subscription', 'params', 'api_key', 'token'),
      value: hostileValue,
    }),
    fc.record({
      kind: fc.constant('params' as const),
      base: fc.nat(),
      field: fc.oneof(fc.constant('trade_id'), hostileKey),
      value: hostileValue,
    }),
    fc.record({ kind: fc.constant('drop' as const), base: fc.nat(), field: fc.nat() }),
    fc.record({
      kind: fc.constant('extra' as const),
      base: fc.nat(),
      key: hostileKey,
      value: hostileValue,
    }),
    fc.record({ kind: fc.constant('value' as const), value: hostileValue }),
    fc.record({
      kind: fc.constant('text' as const),
      text: hostileJsonText.filter((text) => Buffer.byteLength(text) <= MAX_MESSAGE_BYTES),
    }),
    fc.record({ kind: fc.constant('binary' as const), bytes: fc.uint8Array({ maxLength: 64 }) }),
    fc.record({ kind: fc.constant('foreign_key' as const), base: fc.nat() }),
  );

  /** The frame to send, as text (or bytes for a binary frame). */
  function render(change: Message): string | Buffer {
    const all = bases();
    const baseOf = (index: number) => ({ ...all[index % all.length] });
    switch (change.kind) {
      case 'field':
        return JSON.stringify({ ...baseOf(change.base), [change.field]: change.value });
      case 'params': {
        const base = baseOf(change.base);
        return JSON.stringify({
          ...base,
          subscription: 'trades',
          op: base['op'] === 'unsubscribe' ? 'unsubscribe' : 'subscribe',
          params: { [change.field]: change.value },
        });
      }
      case 'drop': {
        const base = baseOf(change.base);
        const keys = Object.keys(base);
        delete base[keys[change.field % keys.length]];
        return JSON.stringify(base);
      }
      case 'extra':
        return JSON.stringify(baseOf(change.base)).replace(
          /}$/,
          `,${JSON.stringify(change.key)}:${JSON.stringify(change.value) ?? 'null'}}`,
        );
      case 'value':
        return JSON.stringify(change.value) ?? 'null';
      case 'text':
        return change.text;
      case 'binary':
        return Buffer.from(change.bytes);
      case 'foreign_key':
        // Another user's valid key: a renewal for someone else is refused, the socket keeps its user.
        return JSON.stringify({
          ...baseOf(change.base),
          op: 'auth',
          api_key: bob.apiKey,
          token: undefined,
        });
    }
  }

  /** A raw socket that records every frame, with a sentinel ping marking where one case's answers end. */
  class Probe {
    readonly frames: Array<{ text: string; value: unknown }> = [];
    closed?: { code: number; reason: string };
    private waiter?: () => void;

    constructor(readonly socket: WebSocket) {
      socket.on('message', (data) => {
        const text = data.toString();
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          value = undefined;
        }
        this.frames.push({ text, value });
        this.waiter?.();
      });
      socket.on('close', (code, reason) => {
        this.closed = { code, reason: reason.toString() };
        this.waiter?.();
      });
      socket.on('error', () => undefined);
    }

    async until(predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (this.closed || Date.now() > deadline) {
          return;
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
          this.waiter = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
  }

  const open = (headers: Record<string, string> = {}): Promise<Probe> =>
    new Promise((resolve, reject) => {
      const socket = new WebSocket(notifier.url, { headers });
      const probe = new Probe(socket);
      socket.once('open', () => resolve(probe));
      socket.once('error', reject);
    });

  it(`answers ${RUNS} broken messages on an authenticated socket with protocol frames, and the socket survives`, async () => {
    console.log(`notifier fuzz: seed ${SEED} (FUZZ_SEED=${SEED} replays this run)`);
    const probe = await open({ 'x-api-key': alice.apiKey });
    const tally = new Map<string, number>();
    let sentinel = 0;
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(message, async (change) => {
        tally.set(change.kind, (tally.get(change.kind) ?? 0) + 1);
        const frame = render(change);
        const from = probe.frames.length;
        const id = `fz-${(sentinel += 1)}`;
        probe.socket.send(frame, { binary: Buffer.isBuffer(frame) });
        probe.socket.send(JSON.stringify({ op: 'ping', id }));
        await probe.until(() =>
          probe.frames.slice(from).some((entry) => (entry.value as { id?: unknown })?.id === id),
        );
        const where = `${change.kind}: ${String(frame).slice(0, 300)}`;
        if (probe.closed) {
          throw new Error(`socket closed ${JSON.stringify(probe.closed)} after ${where}`);
        }
        const answers = probe.frames.slice(from);
        if (!answers.some((entry) => (entry.value as { id?: unknown })?.id === id)) {
          throw new Error(`no pong after ${where}`);
        }
        for (const answer of answers) {
          const problem = frameProblem(answer.value, answer.text, String(frame));
          if (problem) {
            throw new Error(`${problem} after ${where}`);
          }
          // Every answer, refusals included, is a message the AsyncAPI document describes.
          const undescribed = asyncApi.problemsOf(answer.value as Record<string, unknown>);
          if (undescribed.length > 0) {
            throw new Error(`${undescribed.join('; ')} after ${where}`);
          }
        }
        if (answers.length > 2) {
          throw new Error(`${answers.length - 1} answers to one message: ${where}`);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    console.log(
      `notifier fuzz: ${RUNS} socket messages in ${Date.now() - started} ms; by class ${JSON.stringify(Object.fromEntries(tally))}`,
    );
    // Still alice's socket, still working: a subscribe answers with the trade's status, and events arrive.
    probe.socket.send(
      JSON.stringify({
        op: 'subscribe',
        id: 'last',
        subscription: 'trades',
        params: { trade_id: tradeId },
      }),
    );
    await probe.until(() =>
      probe.frames.some((entry) => (entry.value as { id?: unknown })?.id === 'last'),
    );
    expect(
      probe.frames.find((entry) => (entry.value as { id?: unknown })?.id === 'last')?.value,
    ).toMatchObject({
      type: 'subscribed',
      status: 'active',
    });
    const eventId = await harness.publishLifecycle(alice, tradeId, 'trade.paused', 'paused');
    await probe.until(() =>
      probe.frames.some((entry) => (entry.value as { event_id?: unknown })?.event_id === eventId),
    );
    expect(
      probe.frames.some((entry) => (entry.value as { event_id?: unknown })?.event_id === eventId),
    ).toBe(true);
    probe.socket.close();
  });

  it(`answers ${FIRST_MESSAGE_RUNS} broken first messages with an error frame and a close, never a crash`, async () => {
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(message, async (change) => {
        const frame = render(change);
        const probe = await open();
        probe.socket.send(frame, { binary: Buffer.isBuffer(frame) });
        await probe.until(
          () =>
            probe.closed !== undefined ||
            probe.frames.some(
              (entry) => (entry.value as { type?: unknown })?.type === 'authenticated',
            ),
          3_000,
        );
        const where = `${change.kind}: ${String(frame).slice(0, 300)}`;
        for (const answer of probe.frames) {
          const problem = frameProblem(answer.value, answer.text, String(frame));
          if (problem) {
            throw new Error(`${problem} after first message ${where}`);
          }
        }
        const authenticated = probe.frames.some(
          (entry) => (entry.value as { type?: unknown })?.type === 'authenticated',
        );
        if (!authenticated && ![4001, 4003].includes(probe.closed?.code ?? 0)) {
          throw new Error(
            `closed with ${JSON.stringify(probe.closed)} after first message ${where}`,
          );
        }
        probe.socket.terminate();
      }),
      { seed: SEED + 1, numRuns: FIRST_MESSAGE_RUNS, endOnFailure: true },
    );
    console.log(
      `notifier fuzz: ${FIRST_MESSAGE_RUNS} first messages in ${Date.now() - started} ms`,
    );
  });

  it(`refuses ${HANDSHAKE_RUNS} broken upgrades with {error, code} below 500`, async () => {
    const started = Date.now();
    const base = new URL(notifier.url);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record({ kind: fc.constant('api_key' as const), value: hostileHeaderValue }),
          fc.record({
            kind: fc.constant('authorization' as const),
            value: hostileString.map((text) => `Bearer ${headerSafe(text)}`),
          }),
          fc.record({ kind: fc.constant('raw_authorization' as const), value: hostileHeaderValue }),
          fc.record({ kind: fc.constant('path' as const), value: hostilePathSegment }),
        ),
        async (change) => {
          const headers: Record<string, string> = {};
          let url = notifier.url;
          if (change.kind === 'api_key') {
            headers['x-api-key'] = change.value;
          }
          if (change.kind === 'authorization' || change.kind === 'raw_authorization') {
            headers['authorization'] = change.value;
          }
          if (change.kind === 'path') {
            url = `ws://${base.host}/api/v1/ws/${change.value}?q=${change.value}`;
          }
          const where = `${change.kind}: ${change.value.slice(0, 200)} (${change.value.length} characters)`;
          let refusal: { status: number; body: unknown } | undefined;
          try {
            refusal = await TestClient.refused(url, headers);
          } catch (error) {
            // Accepted (no credentials in headers: the socket must authenticate by message) or cut for size.
            if (
              !/accepted|socket hang up|ECONNRESET|Parse Error|Unexpected server response: 431/.test(
                String(error),
              )
            ) {
              throw new Error(`${String(error)} for ${where}`);
            }
            return;
          }
          if (refusal.status >= 500 && refusal.status !== 503) {
            throw new Error(`status ${refusal.status} for ${where}`);
          }
          const problem = errorBodyProblem(refusal.body, JSON.stringify(refusal.body));
          if (problem) {
            throw new Error(`${problem} for ${where}`);
          }
        },
      ),
      { seed: SEED + 2, numRuns: HANDSHAKE_RUNS, endOnFailure: true },
    );
    console.log(`notifier fuzz: ${HANDSHAKE_RUNS} upgrades in ${Date.now() - started} ms`);
  });
});
