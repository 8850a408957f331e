import { userInfo } from 'node:os';
import { Expose } from 'class-transformer';
import { IsOptional, IsString } from 'class-validator';
import type { DataSource, EntityManager } from 'typeorm';
import { createDataSource, OperatorAuditEntity } from '@sts/persistence';
import {
  CommonSettings,
  connectNats,
  CredentialCipher,
  CredentialsSettings,
  loadConfig,
} from '@sts/platform';

class OpsSettings extends CommonSettings {
  /** Who is acting; recorded with every action. Defaults to the OS user. */
  @Expose({ name: 'OPERATOR_ID' })
  @IsOptional()
  @IsString()
  operatorId?: string;
}

/**
 * What every operator command needs, opened lazily: a command that only
 * touches the database never needs the credential key or NATS.
 */
export class OpsContext {
  readonly settings: OpsSettings;
  readonly operatorId: string;
  private dataSource?: DataSource;

  constructor(
    private readonly env: Record<string, string | undefined>,
    operatorOverride?: string,
  ) {
    this.settings = loadConfig(OpsSettings, env);
    this.operatorId = operatorOverride ?? this.settings.operatorId ?? userInfo().username;
  }

  async db(): Promise<DataSource> {
    if (!this.dataSource) {
      this.dataSource = createDataSource(this.settings.databaseUrl, 'sts-ops');
      await this.dataSource.initialize();
    }
    return this.dataSource;
  }

  cipher(): CredentialCipher {
    const settings = loadConfig(CredentialsSettings, this.env);
    return CredentialCipher.fromSettings(
      settings.credentialsKekId,
      settings.credentialsKek,
      settings.credentialsOldKeks,
    );
  }

  /** Every operator action is recorded, in the same transaction as the change it made. */
  async audit(
    manager: EntityManager,
    action: string,
    target: string,
    details: Record<string, unknown> = {},
  ): Promise<void> {
    const entry = manager.getRepository(OperatorAuditEntity).create({
      operatorId: this.operatorId,
      action,
      target,
      details,
    });
    await manager.getRepository(OperatorAuditEntity).save(entry);
  }

  /** Best effort: Postgres holds the truth, and subscribers that miss this read it there. */
  async publish(subject: string, message: Uint8Array): Promise<boolean> {
    try {
      const nats = await connectNats({
        url: this.settings.natsUrl,
        name: `ops-${this.operatorId}`,
      });
      nats.publish(subject, message);
      await nats.drain();
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.dataSource?.isInitialized) {
      await this.dataSource.destroy();
    }
  }
}
