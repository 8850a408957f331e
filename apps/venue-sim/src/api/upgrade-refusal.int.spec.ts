import { connect, type Socket } from 'node:net';
import { startVenueSim, type RunningVenueSim } from '../sim-server';
import { SimControl } from '../testing/sim-control';

/**
 * A refused WebSocket upgrade (unknown path, sockets blocked by a drop-ws
 * fault) is answered on the raw socket. A client that resets its connection
 * then (a trader's process killed, the fault matrix's reconnecting clients)
 * made the socket emit 'error' with nobody listening, and the simulator died
 * (seen in a CI run of the fault matrix: ECONNRESET, "Unhandled 'error' event").
 */
describe('venue simulator: refused upgrades and clients that reset', () => {
  let sim: RunningVenueSim;

  beforeAll(async () => {
    sim = await startVenueSim({ seed: 7, tickMs: 0 });
  });
  afterAll(() => sim.stop());

  const upgrade = (path: string): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const { port } = new URL(sim.url);
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `GET ${path} HTTP/1.1\r\nHost: venue-sim\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
            'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
        );
        resolve(socket);
      });
      socket.once('error', reject);
    });

  const refusedThenReset = async (path: string, when: 'before' | 'after'): Promise<string> => {
    const socket = await upgrade(path);
    socket.on('error', () => undefined);
    if (when === 'before') {
      socket.resetAndDestroy();
      return '';
    }
    const answer = await new Promise<string>((resolve) =>
      socket.once('data', (data) => resolve(data.toString('latin1'))),
    );
    socket.resetAndDestroy();
    return answer.split('\r\n')[0];
  };

  it('lives on when clients reset their refused upgrades, before or after the answer', async () => {
    await new SimControl(sim.url).dropSockets('aster', 60_000);
    for (let round = 0; round < 20; round += 1) {
      expect(await refusedThenReset('/venues/nowhere/ws', 'after')).toBe('HTTP/1.1 404 Not Found');
      expect(await refusedThenReset('/venues/aster/ws', 'after')).toBe(
        'HTTP/1.1 503 Service Unavailable',
      );
      expect(await refusedThenReset('/dialects/aster/ws', 'after')).toBe(
        'HTTP/1.1 503 Service Unavailable',
      );
      await refusedThenReset('/venues/aster/ws', 'before');
      await refusedThenReset('/dialects/aster/ws', 'before');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    const venues = await fetch(`${sim.url}/venues`);
    expect(venues.status).toBe(200);
  });
});
