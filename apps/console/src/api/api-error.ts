/** The API's error body: `{ error, code }`, with `reason` and details on some codes. */
export interface ApiErrorBody {
  error: string;
  code?: string;
  reason?: string;
  [detail: string]: unknown;
}

/** A refusal by the API (or the identity provider), with its status and machine code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: ApiErrorBody | undefined,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  static async from(response: Response): Promise<ApiError> {
    const text = await response.text();
    let body: ApiErrorBody | undefined;
    try {
      body = text ? (JSON.parse(text) as ApiErrorBody) : undefined;
    } catch {
      body = undefined;
    }
    // The identity provider nests its error: { error: { code, message } }.
    const nested = body?.error as unknown as { code?: string; message?: string } | undefined;
    if (nested && typeof nested === 'object') {
      return new ApiError(
        response.status,
        nested.code ?? 'error',
        nested.message ?? `HTTP ${response.status}`,
        undefined,
      );
    }
    const message = body?.error ?? `HTTP ${response.status}`;
    return new ApiError(response.status, body?.code ?? 'error', message, body);
  }
}

/** A message fit for a person: the API's own text, with its reason when it gave one. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    return error.body?.reason ? `${error.message} (${error.body.reason})` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
