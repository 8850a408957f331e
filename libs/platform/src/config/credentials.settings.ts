import { Expose } from 'class-transformer';
import { IsOptional, IsString, Matches } from 'class-validator';

/** Key-encryption keys for venue credentials at rest (gateway, workers, operator tool). */
export class CredentialsSettings {
  /** base64 of 32 random bytes: `openssl rand -base64 32`. */
  @Expose({ name: 'CREDENTIALS_KEK' })
  @Matches(/^[A-Za-z0-9+/]{43}=$/, { message: 'CREDENTIALS_KEK must be base64 of 32 bytes' })
  credentialsKek: string;

  @Expose({ name: 'CREDENTIALS_KEK_ID' })
  @Matches(/^[a-z0-9_-]{1,32}$/)
  credentialsKekId: string = 'k1';

  /** Previous keys still needed to open older rows during a rotation: `id:base64,id:base64`. */
  @Expose({ name: 'CREDENTIALS_OLD_KEKS' })
  @IsOptional()
  @IsString()
  credentialsOldKeks?: string;
}
