import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { AppError } from '../errors';

/** A venue key pair as the trader entered it. Never logged, never returned. */
export interface VenueSecret {
  api_key: string;
  api_secret: string;
  passphrase?: string;
}

export interface SealedSecret {
  sealed: Buffer;
  kekId: string;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

function parseKey(id: string, base64: string): Buffer {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== 32) {
    throw new AppError('internal_error', `key-encryption key ${id} must be 32 bytes of base64`);
  }
  return key;
}

/**
 * AES-256-GCM envelope for venue credentials. The binding context (user,
 * exchange, wallet) is authenticated data, so a sealed blob copied onto
 * another row fails to open. Older key-encryption keys stay readable for
 * rotation; new seals always use the current one.
 */
export class CredentialCipher {
  private readonly keys = new Map<string, Buffer>();

  constructor(
    private readonly currentKekId: string,
    currentKek: string,
    previousKeks: Record<string, string> = {},
  ) {
    for (const [id, key] of Object.entries(previousKeks)) {
      this.keys.set(id, parseKey(id, key));
    }
    this.keys.set(currentKekId, parseKey(currentKekId, currentKek));
  }

  /** `CREDENTIALS_OLD_KEKS` format: `id:base64,id:base64`. */
  static fromSettings(kekId: string, kek: string, oldKeks = ''): CredentialCipher {
    const previous = Object.fromEntries(
      oldKeks
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean)
        .map((entry) => entry.split(':', 2) as [string, string]),
    );
    return new CredentialCipher(kekId, kek, previous);
  }

  seal(secret: VenueSecret, context: string): SealedSecret {
    return this.sealText(JSON.stringify(secret), context);
  }

  /** Any secret text (a webhook's signing secret), sealed as a venue credential is. */
  sealText(text: string, context: string): SealedSecret {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentKekId)!, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return { sealed: Buffer.concat([iv, cipher.getAuthTag(), body]), kekId: this.currentKekId };
  }

  open(sealed: SealedSecret, context: string): VenueSecret {
    const text = this.openText(sealed, context);
    try {
      return JSON.parse(text) as VenueSecret;
    } catch (error) {
      throw new AppError('internal_error', 'venue credential failed to decrypt', { cause: error });
    }
  }

  /** The text `sealText` sealed under the same context; throws when the key or context differ. */
  openText(sealed: SealedSecret, context: string): string {
    const key = this.keys.get(sealed.kekId);
    if (!key) {
      throw new AppError('internal_error', `unknown key-encryption key ${sealed.kekId}`);
    }
    const iv = sealed.sealed.subarray(0, IV_BYTES);
    const tag = sealed.sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
    const body = sealed.sealed.subarray(IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch (error) {
      throw new AppError('internal_error', 'sealed secret failed to decrypt', { cause: error });
    }
  }
}

/** The authenticated context that binds a sealed credential to its row. */
export const credentialContext = (userId: string, exchange: string, wallet: string): string =>
  `${userId}|${exchange}|${wallet}`;

/** `…abcd`: the last 4 characters of the public key, for recognising a key, never using it. */
export const keyPreview = (apiKey: string): string => `…${apiKey.slice(-4)}`;
