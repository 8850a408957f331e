import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type ServerOptions } from 'ws';
import type { Principal } from '@sts/auth';
import { isAppError, sleep } from '@sts/platform';
import { authFailure } from './auth/auth-failure';
import type { HealthCheck } from './health/health.check';
import {
  answerRequest,
  headerOf,
  onClientError,
  refuseUpgrade,
  routeOf,
  WS_PATH,
} from './http-edge';
import { CloseCode, CloseReason } from './protocol/close-codes';
import { SocketProtocol, type SocketProtocolDependencies } from './socket-protocol';

export { WS_PATH };

/** How long a shutdown waits for clients to answer the 1001 close before dropping them. */
const SHUTDOWN_GRACE_MS = 2_000;

/** A closing handshake the client does not finish in this time is cut (frees a slow consumer's buffer). */
const CLOSE_TIMEOUT_MS = 5_000;

export interface WsGatewayDependencies extends SocketProtocolDependencies {
  health: HealthCheck;
  /** Each HTTP request and upgrade answered: its route (a known path, else `unmatched`), status and time. */
  onAnswered?: (route: string, status: number, seconds: number) => void;
}

/**
 * The notifier's edge: one HTTP server for GET /healthz and the WebSocket
 * upgrade at /api/v1/ws; each socket upgraded is handed to SocketProtocol.
 *
 * Plain `ws` on node:http rather than Nest: this process is a hot fan-out path
 * with one route and no DI needs; what it must do well is hold thousands of
 * sockets and write each event to them with as little per-socket work as possible.
 */
export class WsGateway {
  private readonly server: Server;
  private readonly sockets: WebSocketServer;
  private readonly protocol: SocketProtocol;

  constructor(private readonly deps: WsGatewayDependencies) {
    this.protocol = new SocketProtocol(deps);
    // closeTimeout is a ws 8.23 option @types/ws does not know yet.
    const options: ServerOptions & { closeTimeout: number } = {
      noServer: true,
      maxPayload: deps.settings.maxMessageBytes,
      // Compression would cost a deflate per socket per event: the frame could no longer be shared.
      perMessageDeflate: false,
      closeTimeout: CLOSE_TIMEOUT_MS,
      // The registry tracks sockets; ws's own set would be a second copy.
      clientTracking: false,
    };
    this.sockets = new WebSocketServer(options);
    this.server = createServer((request, response) => void this.onRequest(request, response));
    this.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      void this.onUpgrade(request, socket, head);
    });
    this.server.on('clientError', onClientError);
  }

  async listen(port: number, host: string): Promise<AddressInfo> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    return this.server.address() as AddressInfo;
  }

  /** Tells every client to reconnect elsewhere (1001), then stops listening. */
  async close(): Promise<void> {
    const { registry } = this.deps;
    for (const connection of registry.all()) {
      connection.close(CloseCode.GoingAway, CloseReason.GoingAway);
    }
    const deadline = Date.now() + SHUTDOWN_GRACE_MS;
    while (registry.size > 0 && Date.now() < deadline) {
      await sleep(20);
    }
    for (const connection of [...registry.all()]) {
      connection.terminate();
    }
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private answered(path: string, status: number, startedAt: number): void {
    this.deps.onAnswered?.(routeOf(path), status, (performance.now() - startedAt) / 1000);
  }

  private async onRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const startedAt = performance.now();
    const path = new URL(request.url ?? '/', 'http://notifier').pathname;
    response.once('finish', () => this.answered(path, response.statusCode, startedAt));
    await answerRequest(path, request, response, this.deps);
  }

  private clientIpOf(request: IncomingMessage): string {
    const forwarded = this.deps.settings.trustProxy
      ? headerOf(request, 'x-forwarded-for')
      : undefined;
    return forwarded?.split(',')[0]?.trim() || request.socket.remoteAddress || '';
  }

  /**
   * Header credentials (X-API-Key, or Authorization: Bearer) are checked before
   * the upgrade, so a bad key gets the gateway's 401/403 answer and no socket.
   * Without them the socket opens and must authenticate by its first message.
   */
  private async onUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    const startedAt = performance.now();
    const path = new URL(request.url ?? '/', 'http://notifier').pathname;
    if (path !== WS_PATH) {
      refuseUpgrade(socket, 404, { error: 'not found', code: 'not_found' });
      this.answered(path, 404, startedAt);
      return;
    }
    const clientIp = this.clientIpOf(request);
    const apiKey = headerOf(request, 'x-api-key');
    const authorization = headerOf(request, 'authorization');
    let principal: Principal | undefined;
    if (apiKey !== undefined || authorization !== undefined) {
      try {
        principal = await this.deps.authenticate.execute({ apiKey, authorization, clientIp });
      } catch (error) {
        const failure = authFailure(error);
        this.deps.log.info(
          { code: failure.code, client_ip: clientIp, err: isAppError(error) ? undefined : error },
          'handshake refused',
        );
        refuseUpgrade(socket, failure.httpStatus, {
          error: failure.message,
          code: failure.code,
          ...(failure.reason === undefined ? {} : { reason: failure.reason }),
        });
        this.answered(path, failure.httpStatus, startedAt);
        return;
      }
    }
    if (socket.destroyed) {
      return;
    }
    this.sockets.handleUpgrade(request, socket, head, (webSocket) => {
      this.answered(path, 101, startedAt);
      this.protocol.accept(webSocket, clientIp, principal);
    });
  }
}
