import { createServer, connect, type Server, type Socket } from 'node:net';
import { FrameCoalescer } from './frame-coalescer';
import { sleep } from '@sts/platform';

/** A TCP peer that records each read it makes, per connection. */
class Peer {
  readonly reads: string[][] = [];
  private constructor(private readonly server: Server) {}

  static async start(): Promise<Peer> {
    const server = createServer();
    const peer = new Peer(server);
    server.on('connection', (socket) => {
      const reads: string[] = [];
      peer.reads.push(reads);
      socket.on('data', (chunk) => reads.push(chunk.toString()));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return peer;
  }

  async socket(): Promise<Socket> {
    const { port } = this.server.address() as { port: number };
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    return socket;
  }

  /** Waits until `count` bytes in all arrived on connection `index`. */
  async received(index: number, count: number): Promise<string[]> {
    for (let waited = 0; waited < 2_000; waited += 5) {
      const reads = this.reads[index] ?? [];
      if (reads.join('').length >= count) {
        return reads;
      }
      await sleep(5);
    }
    throw new Error(`connection ${index} got ${JSON.stringify(this.reads[index])}`);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('frame coalescer', () => {
  let peer: Peer;
  const sockets: Socket[] = [];
  const open = async (): Promise<Socket> => {
    const socket = await peer.socket();
    sockets.push(socket);
    return socket;
  };
  /** Steps take no time: only sockets and steps that send nothing decide. */
  const coalescerAtRest = (): FrameCoalescer => new FrameCoalescer(0.25, () => 0);
  const send = (coalescer: FrameCoalescer, socket: Socket, frame: string): void => {
    coalescer.beforeWrite(socket);
    socket.write(frame);
  };

  beforeEach(async () => {
    peer = await Peer.start();
  });

  afterEach(async () => {
    for (const socket of sockets.splice(0)) {
      socket.destroy();
    }
    await peer.close();
  });

  it('sends one socket frames of consecutive steps in one write, in order', async () => {
    const coalescer = coalescerAtRest();
    const socket = await open();
    const sent: string[] = [];
    coalescer.during(() => {
      for (const frame of ['a1;', 'a2;', 'a3;']) {
        send(coalescer, socket, frame);
        coalescer.whenSent(() => sent.push(frame));
        coalescer.stepEnded();
      }
      // Held, not yet handed to the kernel.
      expect(sent).toEqual([]);
      expect(socket.writableCorked).toBe(1);
    });
    expect(sent).toEqual(['a1;', 'a2;', 'a3;']);
    expect(socket.writableCorked).toBe(0);
    expect(await peer.received(0, 9)).toEqual(['a1;a2;a3;']);
  });

  it('lets held frames go when the run sends on another socket or a step sends nothing', async () => {
    const coalescer = coalescerAtRest();
    const first = await open();
    const second = await open();
    const sent: string[] = [];
    coalescer.during(() => {
      send(coalescer, first, 'x;');
      coalescer.whenSent(() => sent.push('x'));
      coalescer.stepEnded();
      send(coalescer, second, 'y;');
      // Another socket: the first one's frame left before this one was written.
      expect(sent).toEqual(['x']);
      expect(first.writableCorked).toBe(0);
      coalescer.whenSent(() => sent.push('y'));
      coalescer.stepEnded();
      expect(sent).toEqual(['x']);
      // A step that sent nothing: what was held leaves at its end.
      coalescer.stepEnded();
      expect(sent).toEqual(['x', 'y']);
      expect(second.writableCorked).toBe(0);
    });
    expect(await peer.received(0, 2)).toEqual(['x;']);
    expect(await peer.received(1, 2)).toEqual(['y;']);
  });

  it('lets a frame go once it was held for the longest hold, so a long run still leaves in parts', async () => {
    let clock = 0;
    const coalescer = new FrameCoalescer(0.25, () => clock);
    const socket = await open();
    const sent: string[] = [];
    coalescer.during(() => {
      for (const frame of ['b1;', 'b2;', 'b3;', 'b4;', 'b5;']) {
        send(coalescer, socket, frame);
        coalescer.whenSent(() => sent.push(frame));
        // Each step takes 0.1 ms: b1 has waited 0.3 ms at the end of b3's step.
        clock += 0.1;
        coalescer.stepEnded();
        if (frame === 'b3;') {
          expect(sent).toEqual(['b1;', 'b2;', 'b3;']);
        }
      }
      expect(sent).toEqual(['b1;', 'b2;', 'b3;']);
    });
    expect(sent).toEqual(['b1;', 'b2;', 'b3;', 'b4;', 'b5;']);
    expect((await peer.received(0, 15)).join('')).toBe('b1;b2;b3;b4;b5;');
  });

  it('holds nothing outside a run', async () => {
    const coalescer = coalescerAtRest();
    const socket = await open();
    let sent = false;
    send(coalescer, socket, 'now;');
    coalescer.whenSent(() => (sent = true));
    expect(sent).toBe(true);
    expect(socket.writableCorked).toBe(0);
    expect(await peer.received(0, 4)).toEqual(['now;']);
  });

  it('lets everything go when the run throws', async () => {
    const coalescer = coalescerAtRest();
    const socket = await open();
    expect(() =>
      coalescer.during(() => {
        send(coalescer, socket, 'z;');
        throw new Error('step failed');
      }),
    ).toThrow('step failed');
    expect(socket.writableCorked).toBe(0);
    expect(await peer.received(0, 2)).toEqual(['z;']);
  });
});
