import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, Socket } from 'node:net';
import { sleep } from '@sts/platform';

/**
 * A Redis server of the spec's own, on a free port: the spec may FLUSHALL it,
 * kill it and start it again without touching the machine's shared Redis.
 */
export class PrivateRedis {
  private process?: ChildProcess;

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.restart();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts (again) on the same port, empty: what a Redis restart without persistence looks like. */
  async restart(): Promise<void> {
    if (this.process) {
      throw new Error('private redis already running');
    }
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    this.process = child;
    const deadline = Date.now() + 5_000;
    while (!(await answers(this.port))) {
      if (Date.now() > deadline || child.exitCode !== null) {
        throw new Error(`redis-server did not start on port ${this.port}`);
      }
      await sleep(20);
    }
  }

  async stop(): Promise<void> {
    const child = this.process;
    if (!child) {
      return;
    }
    this.process = undefined;
    if (child.exitCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  server.close();
  await once(server, 'close');
  return port;
}

/** True when something answers PING with PONG on the port. */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (result: boolean): void => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}
