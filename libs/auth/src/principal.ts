export const SCOPES = [
  'trades:read',
  'trades:write',
  'account:read',
  'webhooks:read',
  'webhooks:write',
] as const;
export type Scope = (typeof SCOPES)[number];

export const isScope = (value: string): value is Scope =>
  (SCOPES as readonly string[]).includes(value);

/**
 * Who is calling, as proven by the credentials: every query is scoped by
 * `userId`, which never comes from the request body, path or query.
 */
export interface Principal {
  readonly userId: string;
  readonly method: 'api_key' | 'jwt';
  readonly scopes: ReadonlySet<Scope>;
  /** The wallet claim of the session token (JWT only; absent where the provider names none). */
  readonly walletAddress?: string;
  /** The API key's id (API keys only): for logs and audit, never the key itself. */
  readonly apiKeyId?: string;
  /** When the credential stops being valid; live connections re-check against it. */
  readonly expiresAt: Date;
}
