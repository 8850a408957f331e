import { Expose } from 'class-transformer';
import { IsOptional, IsString, Matches } from 'class-validator';

/**
 * Key-encryption keys for webhook signing secrets (gateway, notifier): a key
 * of their own, so the internet-facing notifier never holds the key that
 * opens venue credentials.
 */
export class WebhookSecretsSettings {
  /** base64 of 32 random bytes: `openssl rand -base64 32`. */
  @Expose({ name: 'WEBHOOK_SECRETS_KEK' })
  @Matches(/^[A-Za-z0-9+/]{43}=$/, { message: 'WEBHOOK_SECRETS_KEK must be base64 of 32 bytes' })
  webhookSecretsKek: string;

  @Expose({ name: 'WEBHOOK_SECRETS_KEK_ID' })
  @Matches(/^[a-z0-9_-]{1,32}$/)
  webhookSecretsKekId: string = 'w1';

  /** Previous keys still needed to open older rows during a rotation: `id:base64,id:base64`. */
  @Expose({ name: 'WEBHOOK_SECRETS_OLD_KEKS' })
  @IsOptional()
  @IsString()
  webhookSecretsOldKeks?: string;
}
