import type { RawData, WebSocket } from 'ws';
import type { Principal } from '@sts/auth';
import { AppError, isAppError, type Logger } from '@sts/platform';
import { authFailure } from './auth/auth-failure';
import type { CredentialMonitor } from './auth/credential-monitor';
import type { NotifierSettings } from './config/notifier.settings';
import { ClientConnection } from './connections/client-connection';
import type { ConnectionRegistry } from './connections/connection-registry';
import { parseClientMessage, requestIdOf, type ClientMessage } from './protocol/client-messages';
import { CloseCode, CloseReason } from './protocol/close-codes';
import {
  authenticatedReply,
  errorReply,
  pongReply,
  switchInForceFrame,
} from './protocol/server-messages';
import type { SwitchesInForce } from './switches/switches-in-force';
import type { AuthenticateSocket } from './use-cases/authenticate-socket/authenticate-socket.use-case';
import type { SubscribeFills } from './use-cases/subscribe-fills/subscribe-fills.use-case';
import type { SubscribeTrades } from './use-cases/subscribe-trades/subscribe-trades.use-case';
import type { UnsubscribeFills } from './use-cases/unsubscribe-fills/unsubscribe-fills.use-case';
import type { UnsubscribeTrades } from './use-cases/unsubscribe-trades/unsubscribe-trades.use-case';

export interface SocketProtocolDependencies {
  settings: NotifierSettings;
  registry: ConnectionRegistry;
  authenticate: AuthenticateSocket;
  subscribe: SubscribeTrades;
  unsubscribe: UnsubscribeTrades;
  subscribeFills: SubscribeFills;
  unsubscribeFills: UnsubscribeFills;
  credentials: CredentialMonitor;
  /** The operator switches in force, told to a socket as it authenticates. */
  switches: SwitchesInForce;
  log: Logger;
}

/**
 * The WebSocket protocol of one open socket: authentication (by headers at
 * the upgrade, or by the first message, and refreshes), then client messages
 * dispatched to the use cases, one at a time per socket.
 */
export class SocketProtocol {
  constructor(private readonly deps: SocketProtocolDependencies) {}

  /** A socket just upgraded: registered, authenticated by its headers or given its deadline. */
  accept(socket: WebSocket, clientIp: string, principal?: Principal): void {
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
    const first = connection.state === 'authenticating';
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
    if (first) {
      void this.tellSwitches(connection);
    }
  }

  /**
   * The switches in force, after `authenticated` (a change published
   * meanwhile may arrive first: each frame carries its updated_at).
   */
  private async tellSwitches(connection: ClientConnection): Promise<void> {
    try {
      for (const state of await this.deps.switches.read()) {
        connection.deliver(switchInForceFrame(state));
      }
    } catch (error) {
      this.deps.log.warn(
        { err: error, connection_id: connection.id },
        'could not read the switches in force for a new socket',
      );
    }
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
        return message.subscription === 'fills'
          ? this.deps.subscribeFills.execute(connection, message)
          : this.deps.subscribe.execute(connection, message.tradeId, message.id);
      case 'unsubscribe':
        return message.subscription === 'fills'
          ? this.deps.unsubscribeFills.execute(connection, message.tradeId, message.id)
          : this.deps.unsubscribe.execute(connection, message.tradeId, message.id);
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
