/** A refusal in Lighter's shape: `{code, message}` (ccxt maps the code). */
export class LighterError extends Error {
  override readonly name = 'LighterError';

  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }

  reply() {
    return { status: this.status, body: { code: this.code, message: this.message } };
  }
}
