import {
  createServer,
  STATUS_CODES,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type ServerOptions, type WebSocket } from 'ws';
import type { Principal } from '@sts/auth';
import { AppError, isAppError, type Logger } from '@sts/platform';
import { authFailure } from './auth/auth-failure';
import type { CredentialMonitor } from './auth/credential-monitor';
import type { NotifierSettings } from './config/notifier.settings';
import { ClientConnection } from './connections/client-connection';
import type { ConnectionRegistry } from './connections/connection-registry';
import type { HealthCheck } from './health/health.check';
import { parseClientMessage, requestIdOf, type ClientMessage } from './protocol/client-messages';
import { CloseCode, CloseReason } from './protocol/close-codes';
import { authenticatedReply, errorReply, pongReply } from './protocol/server-messages';
import type { AuthenticateSocket } from './use-cases/authenticate-socket/authenticate-socket.use-case';
import type { SubscribeTrades } from './use-cases/subscribe-trades/subscribe-trades.use-case';
import type { UnsubscribeTrades } from './use-cases/unsubscribe-trades/unsubscribe-trades.use-case';

export const WS_PATH = '/api/v1/ws';

/** Seconds a client should wait before retrying a 503 (a dependency is gone). */
const RETRY_AFTER_S = 2;

/** Liveness: the process answers. Readiness: Postgres and NATS answer (also `/healthz`). */
const LIVENESS_PATH = '/livez';
const READINESS_PATHS: ReadonlySet<string> = new Set(['/readyz', '/healthz']);

/** How long a shutdown waits for clients to answer the 1001 close before dropping them. */
const SHUTDOWN_GRACE_MS = 2_000;

/** A closing handshake the client does not finish in this time is cut (frees a slow consumer's buffer). */
const CLOSE_TIMEOUT_MS = 5_000;

export interface WsGatewayDependencies {
  settings: NotifierSettings;
  registry: ConnectionRegistry;
  authenticate: AuthenticateSocket;
  subscribe: SubscribeTrades;
  unsubscribe: UnsubscribeTrades;
  credentials: CredentialMonitor;
  health: HealthCheck;
  log: Logger;
  /** Each HTTP request and upgrade answered: its route (a known path, else `unmatched`), status and time. */
  onAnswered?: (route: string, status: number, seconds: number) => void;
}

const headerOf = (request: IncomingMessage, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Refuses an upgrade with a plain HTTP answer carrying the same `{error, code}` body as the gateway. */
function refuseUpgrade(
  socket: Duplex,
  status: number,
  body: { error: string; code: string; reason?: string },
): void {
  const text = JSON.stringify(body);
  const retryAfter = status === 503 ? `Retry-After: ${RETRY_AFTER_S}\r\n` : '';
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
      'Content-Type: application/json\r\n' +
      retryAfter +
      `Content-Length: ${Buffer.byteLength(text)}\r\n` +
      'Connection: close\r\n\r\n' +
      text,
  );
}

/**
 * A request Node's parser refuses before any handler runs (a head over 16 KiB,
 * malformed HTTP): the same `{error, code}` body as every other refusal,
 * instead of Node's bare status line.
 */
function onClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    refuseUpgrade(socket, 431, { error: 'request headers too large', code: 'headers_too_large' });
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    refuseUpgrade(socket, 408, { error: 'request timeout', code: 'request_timeout' });
  } else {
    refuseUpgrade(socket, 400, { error: 'malformed request', code: 'invalid_request' });
  }
}

/**
 * The notifier's edge: one HTTP server for GET /healthz and the WebSocket
 * upgrade at /api/v1/ws, and the dispatch of client messages to use cases.
 *
 * Plain `ws` on node:http rather than Nest: this process is a hot fan-out path
 * with one route and no DI needs; what it must do well is hold thousands of
 * sockets and write each event to them with as little per-socket work as possible.
 */
export class WsGateway {
  private readonly server: Server;
  private readonly sockets: WebSocketServer;

  constructor(private readonly deps: WsGatewayDependencies) {
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
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const connection of [...registry.all()]) {
      connection.terminate();
    }
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  /** The path when it is one of the notifier's routes: never a raw URL as a metric label. */
  private routeOf(path: string): string {
    return path === LIVENESS_PATH || path === WS_PATH || READINESS_PATHS.has(path)
      ? path
      : 'unmatched';
  }

  private answered(path: string, status: number, startedAt: number): void {
    this.deps.onAnswered?.(this.routeOf(path), status, (performance.now() - startedAt) / 1000);
  }

  private async onRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const startedAt = performance.now();
    const path = new URL(request.url ?? '/', 'http://notifier').pathname;
    response.once('finish', () => this.answered(path, response.statusCode, startedAt));
    if (request.method === 'GET' && path === LIVENESS_PATH) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ status: 'ok', connections: this.deps.registry.size }));
      return;
    }
    if (request.method === 'GET' && READINESS_PATHS.has(path)) {
      const report = await this.deps.health.report();
      response.writeHead(report.healthy ? 200 : 503, {
        'content-type': 'application/json',
        ...(report.healthy ? {} : { 'retry-after': String(RETRY_AFTER_S) }),
      });
      response.end(JSON.stringify(report.body));
      return;
    }
    const status = path === WS_PATH ? 426 : 404;
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify(
        status === 426
          ? { error: 'this path only accepts WebSocket upgrades', code: 'invalid_request' }
          : { error: 'not found', code: 'not_found' },
      ),
    );
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
      this.onConnection(webSocket, clientIp, principal);
    });
  }

  private onConnection(socket: WebSocket, clientIp: string, principal?: Principal): void {
    const { registry, settings, log } = this.deps;
    const connection = new ClientConnection(
      socket,
      clientIp,
      settings.maxBufferedBytes,
      log,
      registry.counts,
    );
    registry.add(connection);
    socket.on('message', (data, isBinary) => this.onMessage(connection, data, isBinary));
    socket.on('pong', () => {
      connection.alive = true;
    });
    socket.on('error', (error) => {
      log.debug({ err: error, connection_id: connection.id }, 'socket error');
    });
    socket.on('close', (code) => {
      connection.state = 'closing';
      connection.releaseTimers();
      registry.remove(connection);
      log.debug(
        { connection_id: connection.id, user_id: connection.userId, code },
        'socket closed',
      );
    });
    if (principal) {
      this.admit(connection, principal);
    } else {
      connection.setTimer('auth-deadline', settings.authTimeoutMs, () => {
        if (connection.state !== 'authenticating') {
          return;
        }
        connection.reply(errorReply('unauthorized', 'no auth message in time'));
        connection.close(CloseCode.Unauthorized, CloseReason.AuthTimeout);
      });
    }
  }

  private admit(connection: ClientConnection, principal: Principal, id?: string | number): void {
    connection.principal = principal;
    connection.state = 'open';
    connection.clearTimer('auth-deadline');
    this.deps.credentials.watch(connection);
    this.deps.log.debug(
      {
        connection_id: connection.id,
        user_id: principal.userId,
        method: principal.method,
        api_key_id: principal.apiKeyId,
      },
      'socket authenticated',
    );
    connection.reply(authenticatedReply(principal, id));
  }

  private onMessage(connection: ClientConnection, data: RawData, isBinary: boolean): void {
    connection.alive = true;
    let raw: unknown;
    try {
      if (isBinary) {
        throw new Error('binary frame');
      }
      raw = JSON.parse(data.toString());
    } catch {
      this.refuse(
        connection,
        new AppError('invalid_request', 'messages are JSON text frames'),
        undefined,
      );
      return;
    }
    let message: ClientMessage;
    try {
      message = parseClientMessage(raw);
    } catch (error) {
      this.refuse(connection, error, requestIdOf(raw));
      return;
    }
    const accepted = connection.enqueue(() => this.dispatch(connection, message));
    if (!accepted) {
      connection.reply(
        errorReply('rate_limited', 'too many requests in flight on this socket', {
          id: message.id,
          op: message.op,
        }),
      );
    }
  }

  /** An unreadable message: an error answer, and the end of a socket that has not authenticated yet. */
  private refuse(
    connection: ClientConnection,
    error: unknown,
    id: string | number | undefined,
  ): void {
    const appError = isAppError(error) ? error : new AppError('invalid_request', 'invalid message');
    connection.reply(errorReply(appError.code, appError.message, { id }));
    if (connection.state === 'authenticating') {
      connection.close(CloseCode.Unauthorized, 'unauthorized');
    }
  }

  private async dispatch(connection: ClientConnection, message: ClientMessage): Promise<void> {
    if (message.op === 'auth') {
      return this.onAuth(connection, message);
    }
    if (connection.state !== 'open') {
      connection.reply(
        errorReply('unauthorized', 'the first message must be {"op":"auth",...}', {
          id: message.id,
          op: message.op,
        }),
      );
      connection.close(CloseCode.Unauthorized, 'unauthorized');
      return;
    }
    switch (message.op) {
      case 'subscribe':
        return this.deps.subscribe.execute(connection, message.tradeId, message.id);
      case 'unsubscribe':
        return this.deps.unsubscribe.execute(connection, message.tradeId, message.id);
      case 'ping':
        return connection.reply(pongReply(message.id));
    }
  }

  /**
   * First-message authentication, or a refresh on a live socket (a browser
   * sends its renewed JWT before the old one expires). A refresh must prove
   * the same user; a failed refresh leaves the socket on its current credentials.
   */
  private async onAuth(
    connection: ClientConnection,
    message: Extract<ClientMessage, { op: 'auth' }>,
  ): Promise<void> {
    const context = { id: message.id, op: message.op };
    let principal: Principal;
    try {
      principal = await this.deps.authenticate.execute({
        apiKey: message.apiKey,
        token: message.token,
        clientIp: connection.clientIp,
      });
    } catch (error) {
      const failure = authFailure(error);
      if (!isAppError(error)) {
        this.deps.log.error({ err: error, connection_id: connection.id }, 'authentication failed');
      }
      connection.reply(
        errorReply(failure.code, failure.message, { ...context, reason: failure.reason }),
      );
      if (connection.state === 'authenticating') {
        connection.close(failure.closeCode, failure.code);
      }
      return;
    }
    if (connection.state === 'closing') {
      return;
    }
    if (connection.state === 'open' && principal.userId !== connection.userId) {
      connection.reply(
        errorReply(
          'unauthorized',
          'credentials belong to another user; open a new connection',
          context,
        ),
      );
      return;
    }
    this.admit(connection, principal, message.id);
  }
}
