import type { Principal, RequestAuthenticator } from '@sts/auth';
import { type Logger, PeriodicTask } from '@sts/platform';
import type { ClientConnection } from '../connections/client-connection';
import type { ConnectionRegistry } from '../connections/connection-registry';
import { CloseCode, CloseReason } from '../protocol/close-codes';

/** Keys re-read per query during a sweep. */
const SWEEP_BATCH = 1000;

const chunks = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, index) =>
    items.slice(index * size, (index + 1) * size),
  );

/**
 * Ends live connections whose credentials stopped being valid (4009):
 * - every socket closes at its credential's expiry (a JWT's `exp`, an API key's expires_at);
 * - every few seconds the API keys behind the open sockets are re-read, one
 *   batched query for all distinct keys however many sockets share them, so a revoked key's
 *   sockets close within NOTIFIER_AUTH_RECHECK_MS.
 * A sweep that cannot reach Postgres keeps the sockets and tries again next
 * time: new connections cannot authenticate meanwhile anyway.
 */
export class CredentialMonitor {
  private readonly task: PeriodicTask;
  private sweeping = false;

  constructor(
    private readonly registry: ConnectionRegistry,
    private readonly authenticator: RequestAuthenticator,
    private readonly intervalMs: number,
    private readonly log: Logger,
  ) {
    this.task = new PeriodicTask(() => this.sweep(), {
      intervalMs,
      onError: (error) => log.warn({ err: error }, 'credential sweep failed'),
    });
  }

  start(): void {
    this.task.start();
  }

  /** Resolves once a sweep in flight has ended. */
  stop(): Promise<void> {
    return this.task.stop();
  }

  /** Arms the socket's expiry timer for its (new) principal. */
  watch(connection: ClientConnection): void {
    const principal = connection.principal;
    if (!principal) {
      return;
    }
    connection.setTimer('credentials-expiry', principal.expiresAt.getTime() - Date.now(), () =>
      this.end(connection, CloseReason.CredentialsExpired),
    );
  }

  async sweep(now = new Date()): Promise<void> {
    if (this.sweeping) {
      return;
    }
    this.sweeping = true;
    try {
      const socketsByKey = new Map<string, { principal: Principal; sockets: ClientConnection[] }>();
      for (const connection of this.registry.authenticated()) {
        const principal = connection.principal;
        if (!principal) {
          continue;
        }
        if (principal.expiresAt.getTime() <= now.getTime()) {
          this.end(connection, CloseReason.CredentialsExpired);
        } else if (principal.apiKeyId) {
          const group = socketsByKey.get(principal.apiKeyId);
          if (group) {
            group.sockets.push(connection);
          } else {
            socketsByKey.set(principal.apiKeyId, { principal, sockets: [connection] });
          }
        }
      }
      for (const ids of chunks([...socketsByKey.keys()], SWEEP_BATCH)) {
        await this.recheckKeys(ids, socketsByKey, now);
      }
    } finally {
      this.sweeping = false;
    }
  }

  /** One query for a batch of keys; the sockets of every key no longer valid are closed. */
  private async recheckKeys(
    ids: string[],
    socketsByKey: Map<string, { sockets: ClientConnection[] }>,
    now: Date,
  ): Promise<void> {
    let valid: Set<string>;
    try {
      valid = await this.authenticator.validApiKeyIds(ids, now);
    } catch (error) {
      this.log.warn({ err: error, api_keys: ids.length }, 'API key re-check failed; sockets kept');
      return;
    }
    for (const apiKeyId of ids.filter((id) => !valid.has(id))) {
      const sockets = socketsByKey.get(apiKeyId)?.sockets ?? [];
      this.log.info(
        { api_key_id: apiKeyId, sockets: sockets.length },
        'API key revoked or expired; closing its sockets',
      );
      for (const connection of sockets) {
        // The socket may have re-authenticated with another key while the row was read.
        if (connection.principal?.apiKeyId === apiKeyId) {
          this.end(connection, CloseReason.CredentialsRevoked);
        }
      }
    }
  }

  private end(connection: ClientConnection, reason: string): void {
    if (!connection.isOpen) {
      return;
    }
    this.log.info(
      {
        connection_id: connection.id,
        user_id: connection.userId,
        api_key_id: connection.principal?.apiKeyId,
        reason,
      },
      'closing socket: credentials ended',
    );
    connection.close(CloseCode.CredentialsEnded, reason);
  }
}
