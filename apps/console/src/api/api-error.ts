import { StsApiError } from '@sts/sdk';

/**
 * A refusal by the identity provider, whose error body nests its code:
 * `{ error: { code, message } }` (the API's refusals are the SDK's StsApiError).
 */
export class IdentityError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'IdentityError';
  }

  static async from(response: Response): Promise<IdentityError> {
    let body: { error?: unknown; code?: unknown } | undefined;
    try {
      body = JSON.parse(await response.text()) as typeof body;
    } catch {
      body = undefined;
    }
    const fallback = `HTTP ${response.status}`;
    const nested = body?.error;
    if (typeof nested === 'object' && nested !== null) {
      const { code, message } = nested as { code?: string; message?: string };
      return new IdentityError(response.status, code ?? 'error', message ?? fallback);
    }
    const code = typeof body?.code === 'string' ? body.code : 'error';
    return new IdentityError(response.status, code, typeof nested === 'string' ? nested : fallback);
  }
}

/** A message fit for a person: the API's own text, with its reason when it gave one. */
export function describeError(error: unknown): string {
  if (error instanceof StsApiError) {
    return error.reason ? `${error.body.error} (${error.reason})` : error.body.error;
  }
  return error instanceof Error ? error.message : String(error);
}
