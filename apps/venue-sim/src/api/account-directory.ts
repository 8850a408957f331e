import type { IncomingMessage } from 'node:http';
import {
  PAPER_HEADERS,
  SIGNATURE_WINDOW_MS,
  paperSignature,
  signatureMatches,
  type PaperCredentials,
} from '@sts/venues';
import { HttpFailure } from './http-kit';

interface KeyRecord {
  secret: string;
  /** Account id on the venue: the wallet, lower-cased. */
  accountId: string;
}

/**
 * Who may trade on each venue. An API key belongs to one wallet; the wallet
 * is the account, so every key of a wallet shares its positions and its
 * request limit. Keys come from the control endpoint or, when self
 * registration is on (the default), from the first registration call that
 * names them (trust on first use: the simulator cannot know the secrets the
 * operator generated). Secrets live only in memory and are never logged.
 */
export class AccountDirectory {
  private readonly keys = new Map<string, KeyRecord>();

  constructor(private readonly selfRegistration: boolean) {}

  register(
    venue: string,
    credentials: PaperCredentials,
    viaControl: boolean,
  ): { accountId: string; created: boolean } {
    if (!viaControl && !this.selfRegistration) {
      throw new HttpFailure(
        403,
        'registration_closed',
        'accounts are registered by the operator only',
      );
    }
    validateCredentials(credentials);
    const accountId = credentials.wallet.toLowerCase();
    const existing = this.keys.get(keyOf(venue, credentials.apiKey));
    if (existing) {
      if (existing.secret === credentials.apiSecret && existing.accountId === accountId) {
        return { accountId, created: false };
      }
      throw new HttpFailure(
        409,
        'api_key_taken',
        'this api key is registered with other credentials',
      );
    }
    this.keys.set(keyOf(venue, credentials.apiKey), { secret: credentials.apiSecret, accountId });
    return { accountId, created: true };
  }

  /** The account a signed request acts for; 401 for anything unsigned, stale or forged. */
  authenticate(
    venue: string,
    headers: IncomingMessage['headers'],
    method: string,
    pathWithQuery: string,
    body: string,
    nowMs: number,
  ): string {
    const apiKey = header(headers, PAPER_HEADERS.apiKey);
    const wallet = header(headers, PAPER_HEADERS.wallet);
    const timestamp = Number(header(headers, PAPER_HEADERS.timestamp));
    const signature = header(headers, PAPER_HEADERS.signature);
    if (!apiKey || !wallet || !signature || !Number.isFinite(timestamp)) {
      throw unauthorized('missing signature headers');
    }
    const record = this.keys.get(keyOf(venue, apiKey));
    if (!record) {
      throw unauthorized('unknown api key');
    }
    if (record.accountId !== wallet.toLowerCase()) {
      throw unauthorized('api key does not belong to this wallet');
    }
    if (Math.abs(nowMs - timestamp) > SIGNATURE_WINDOW_MS) {
      throw unauthorized('timestamp outside the signature window');
    }
    const expected = paperSignature(record.secret, timestamp, method, pathWithQuery, body);
    if (!/^[0-9a-f]{64}$/.test(signature) || !signatureMatches(expected, signature)) {
      throw unauthorized('bad signature');
    }
    return record.accountId;
  }

  clear(): void {
    this.keys.clear();
  }
}

const keyOf = (venue: string, apiKey: string): string => `${venue}\u0000${apiKey}`;

const header = (headers: IncomingMessage['headers'], name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const unauthorized = (message: string): HttpFailure =>
  new HttpFailure(401, 'unauthorized', message);

function validateCredentials(credentials: PaperCredentials): void {
  const ok = (value: unknown, max: number): boolean =>
    typeof value === 'string' && value.length > 0 && value.length <= max;
  if (
    !ok(credentials.apiKey, 256) ||
    !ok(credentials.apiSecret, 512) ||
    !ok(credentials.wallet, 128)
  ) {
    throw new HttpFailure(
      400,
      'invalid_request',
      'api_key, api_secret and wallet are required strings',
    );
  }
}
