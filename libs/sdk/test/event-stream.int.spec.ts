import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import {
  StsEventStream,
  watchTrade,
  type StsFill,
  type StreamState,
  type Trade,
  type TradeEvents,
  type TradeReader,
} from '../src';

jest.setTimeout(20_000);

interface ClientMessage {
  op: string;
  subscription?: string;
  api_key?: string;
  params?: { trade_id?: string; from_sequence?: number };
}

const fill = (sequence: number, eventType = 'maker_fill'): StsFill => ({
  type: 'fill',
  trade_id: 'trade-1',
  sequence,
  event_type: eventType as StsFill['event_type'],
  created_at: new Date(1_700_000_000_000 + sequence).toISOString(),
  data: { size: '0.001' },
});

const until = async (condition: () => boolean, what: string) => {
  for (const started = Date.now(); !condition();) {
    if (Date.now() - started > 5000) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

/**
 * The stream against a fake notifier that speaks the protocol (apps/notifier
 * README): first-message auth, the trades and fills subscriptions, and a
 * replica that goes away mid-trade.
 */
describe('StsEventStream against a fake notifier', () => {
  let server: WebSocketServer;
  let url: string;
  const sockets: WebSocket[] = [];
  const received: ClientMessage[][] = [];
  /** While set, subscriptions are confirmed only when the spec calls the withheld answers. */
  let holdConfirmations = false;
  const withheld: Array<() => void> = [];

  beforeEach(async () => {
    server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
    sockets.length = 0;
    received.length = 0;
    holdConfirmations = false;
    withheld.length = 0;
    server.on('connection', (socket) => {
      const messages: ClientMessage[] = [];
      sockets.push(socket);
      received.push(messages);
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as ClientMessage;
        messages.push(message);
        if (message.op === 'auth') {
          const ok = message.api_key === 'sts_good';
          socket.send(JSON.stringify(ok ? { type: 'authenticated' } : { type: 'error' }));
          if (!ok) {
            socket.close(4001, 'unauthorized');
          }
        } else if (message.op === 'subscribe') {
          const { subscription, params } = message;
          const confirm = () =>
            socket.send(JSON.stringify({ type: 'subscribed', subscription, params }));
          if (holdConfirmations) {
            withheld.push(confirm);
          } else {
            confirm();
          }
        }
      });
    });
  });
  afterEach(() => new Promise((resolve) => server.close(resolve)));

  const send = (socket: WebSocket, frame: object) => socket.send(JSON.stringify(frame));

  it('resubscribes to fills after a reconnect from the last sequence seen + 1, delivering each once', async () => {
    const stream = new StsEventStream({ url, apiKey: 'sts_good', WebSocket, reconnectBaseMs: 20 });
    const fills: number[] = [];
    stream.onFill((pushed) => fills.push(pushed.sequence));
    stream.subscribeFills('trade-1', { fromSequence: 1 });
    await stream.subscribed();
    expect(received[0]).toEqual([
      { op: 'auth', api_key: 'sts_good' },
      { op: 'subscribe', subscription: 'fills', params: { trade_id: 'trade-1', from_sequence: 1 } },
    ]);

    send(sockets[0]!, fill(1));
    send(sockets[0]!, fill(2, 'hedge_filled'));
    await until(() => fills.length === 2, 'two fills');
    sockets[0]!.close(1001, 'going_away');

    await until(() => stream.connections === 2, 'the reconnect');
    await stream.subscribed();
    expect(received[1]).toContainEqual({
      op: 'subscribe',
      subscription: 'fills',
      params: { trade_id: 'trade-1', from_sequence: 3 },
    });
    // A replay overlapping what was seen is dropped by sequence.
    send(sockets[1]!, fill(2, 'hedge_filled'));
    send(sockets[1]!, fill(3, 'hedge_outcome'));
    await until(() => fills.length >= 3, 'the third fill');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fills).toEqual([1, 2, 3]);
    stream.close();
  });

  it('hands lifecycle events to listeners and the iterator, once per event_id', async () => {
    const stream = new StsEventStream({ url, apiKey: 'sts_good', WebSocket });
    stream.subscribe('trade-1');
    await stream.subscribed();
    const heard: string[] = [];
    stream.onEvent((event) => heard.push(event.event_id));
    const iterated: string[] = [];
    const reading = (async () => {
      for await (const event of stream) {
        iterated.push(event.event_id);
        if (event.event === 'trade.completed') {
          break;
        }
      }
    })();
    const event = (id: string, name: string) => ({
      type: 'event',
      event: name,
      event_id: id,
      trade_id: 'trade-1',
      status: name === 'trade.completed' ? 'completed' : 'active',
      timestamp: new Date().toISOString(),
      data: {},
    });
    send(sockets[0]!, event('e1', 'trade.started'));
    send(sockets[0]!, event('e1', 'trade.started'));
    send(sockets[0]!, event('e2', 'trade.completed'));
    await reading;
    expect(iterated).toEqual(['e1', 'e2']);
    expect(heard).toEqual(['e1', 'e2']);
    expect(stream.state).toBe('closed');
  });

  it('says once per connection when its subscriptions are all confirmed: the first and each reconnect', async () => {
    const stream = new StsEventStream({ url, apiKey: 'sts_good', WebSocket, reconnectBaseMs: 20 });
    const confirmedOn: number[] = [];
    stream.onSubscribed((connection) => confirmedOn.push(connection));
    stream.subscribe('trade-1');
    await until(() => confirmedOn.length === 1, 'the first connection confirmed');
    // A subscription added later on the same connection: `subscribed()`, not this.
    stream.subscribe('trade-2');
    await stream.subscribed();
    expect(confirmedOn).toEqual([1]);

    holdConfirmations = true;
    sockets[0]!.close(1001, 'going_away');
    await until(() => withheld.length === 2, 'both subscriptions sent again');
    withheld.shift()!();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(confirmedOn).toEqual([1]);
    withheld.shift()!();
    await until(() => confirmedOn.length === 2, 'the reconnect confirmed');
    expect(confirmedOn).toEqual([1, 2]);
    stream.close();
  });

  it('has a trade watch read the trade again once the reconnected socket is subscribed', async () => {
    const stream = new StsEventStream({ url, apiKey: 'sts_good', WebSocket, reconnectBaseMs: 20 });
    let status: Trade['status'] = 'active';
    let reads = 0;
    const reader: TradeReader = {
      getTrade: async () => {
        reads += 1;
        return { trade_id: 'trade-1', status, filled_size: '0' } as unknown as Trade;
      },
      tradeEvents: async () => ({ events: [], has_more: false }) as unknown as TradeEvents,
    };
    // Polling alone would read again only after a minute: far past this spec's timeout.
    const watch = watchTrade(reader, 'trade-1', { stream, intervalMs: 60_000, events: false });
    const seen: string[] = [];
    const following = (async () => {
      for await (const update of watch) {
        seen.push(update.type === 'event' ? 'event' : `${update.type}:${update.trade.status}`);
      }
    })();
    await until(() => seen.length === 1 && sockets.length === 1, 'the first read');
    await stream.subscribed();
    await until(() => reads >= 2, 'the read once subscribed');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reads).toBe(2);

    // The trade ends while the socket is down: its trade.canceled event goes to no one.
    sockets[0]!.close(1001, 'going_away');
    status = 'canceled';
    await following;
    expect(seen).toEqual(['trade:active', 'trade:canceled', 'end:canceled']);
    expect(stream.connections).toBe(2);
    stream.close();
  });

  it('stops for good on 4001, saying why', async () => {
    const stream = new StsEventStream({ url, apiKey: 'sts_bad', WebSocket, reconnectBaseMs: 20 });
    const states: StreamState[] = [];
    stream.onState((state) => states.push(state));
    const iteration = (async () => {
      for await (const _ of stream) {
        // none arrive
      }
    })();
    await expect(iteration).rejects.toMatchObject({ closeCode: 4001, closeReason: 'unauthorized' });
    expect(stream.closedBy).toMatchObject({ closeCode: 4001 });
    expect(states.at(-1)).toBe('closed');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sockets).toHaveLength(1);
  });
});
