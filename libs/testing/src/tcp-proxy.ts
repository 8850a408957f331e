import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP forwarder a spec controls, standing between a service under test and
 * the machine's shared Postgres, NATS or Redis, so a spec can take the
 * dependency away from one service without touching the real server (other
 * specs use it at the same time).
 *
 * - `cut()`: a restart as clients see it: every open connection is reset and
 *   new ones are reset on arrival (the port stays bound, so nothing else takes it).
 * - `blackhole()`: a network partition: connections stay open, nothing
 *   passes, new ones are accepted and never answered.
 * - `restore()`: forwarding again; blackholed connections are reset (the
 *   server behind a partition forgot them), so clients re-connect.
 */
export class TcpProxy {
  private server?: Server;
  private mode: 'up' | 'cut' | 'blackhole' = 'up';
  private readonly pairs = new Set<[Socket, Socket | undefined]>();
  port = 0;

  constructor(
    private targetPort: number,
    private readonly targetHost = '127.0.0.1',
  ) {}

  /** Forwards new connections to another port (a server whose port is known only later). */
  retarget(port: number): void {
    this.targetPort = port;
  }

  /** `scheme://host:port/rest` with host and port replaced by this proxy's. */
  rewrite(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.toString().replace(/\/$/, '');
  }

  async start(): Promise<this> {
    this.server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  cut(): void {
    this.mode = 'cut';
    this.resetAll();
  }

  blackhole(): void {
    this.mode = 'blackhole';
    for (const [client, upstream] of this.pairs) {
      client.pause();
      upstream?.pause();
      if (upstream) {
        client.unpipe(upstream);
      }
      upstream?.unpipe(client);
    }
  }

  restore(): void {
    if (this.mode === 'blackhole') {
      this.resetAll();
    }
    this.mode = 'up';
  }

  async stop(): Promise<void> {
    this.resetAll();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

  private accept(client: Socket): void {
    client.on('error', () => client.destroy());
    if (this.mode === 'cut') {
      client.resetAndDestroy();
      return;
    }
    if (this.mode === 'blackhole') {
      const pair: [Socket, Socket | undefined] = [client, undefined];
      this.pairs.add(pair);
      client.on('close', () => this.pairs.delete(pair));
      return;
    }
    const upstream = connect(this.targetPort, this.targetHost);
    const pair: [Socket, Socket | undefined] = [client, upstream];
    this.pairs.add(pair);
    const close = (): void => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    upstream.on('error', close);
    client.on('close', close);
    upstream.on('close', close);
    client.pipe(upstream);
    upstream.pipe(client);
  }

  private resetAll(): void {
    for (const [client, upstream] of this.pairs) {
      client.resetAndDestroy();
      upstream?.destroy();
    }
    this.pairs.clear();
  }
}
