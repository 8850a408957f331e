import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { NonPublicAddressError, publicAddressesOf } from '@sts/platform';

/** The largest body a delivery sends. */
export const MAX_REQUEST_BYTES = 64 * 1024;
/** What is read of an answer (the rest is dropped with the connection). */
export const MAX_ANSWER_BYTES = 4 * 1024;

export interface OutboundPostOptions {
  /** Deliver to loopback, private and link-local addresses too (WEBHOOKS_ALLOW_PRIVATE_ADDRESSES). */
  allowPrivateAddresses: boolean;
  /** The whole attempt's bound: resolving, connecting, sending, reading the answer. */
  timeoutMs: number;
}

/** What one POST came to. */
export type PostResult =
  | {
      kind: 'answered';
      status: number;
      /** The redirect's target, never followed. */
      location: string | null;
      /** The answer's first MAX_ANSWER_BYTES, as text. */
      body: string;
      durationMs: number;
    }
  /** Not sent: a URL the service may not call (not http(s), a non-public address), a body too big. */
  | { kind: 'refused'; error: string; durationMs: number }
  /** Sent or not, no answer: DNS, connection, TLS, timeout. */
  | { kind: 'unreachable'; error: string; durationMs: number }
  /** Cut short because the dispatcher is stopping. */
  | { kind: 'stopped'; durationMs: number };

class Refusal extends Error {}

/**
 * The one HTTP client that calls a URL a user chose. Outbound safety: only
 * https (http too where private addresses are allowed, for a receiver on the
 * developer's machine); the host resolved first and refused when any of its
 * addresses is not public, then connected to exactly the addresses checked
 * (the socket's lookup answers with them, so a DNS answer that changes
 * between the check and the connection cannot send it inside); a redirect
 * answered, never followed; one timeout over the whole attempt; the body and
 * the part of the answer read both bounded. Node's http client, not fetch:
 * its `lookup` option is where the checked addresses are pinned.
 */
export class OutboundPost {
  constructor(private readonly options: OutboundPostOptions) {}

  async post(
    target: string,
    headers: Record<string, string>,
    body: string,
    stopping: AbortSignal,
  ): Promise<PostResult> {
    if (stopping.aborted) {
      return { kind: 'stopped', durationMs: 0 };
    }
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    const attempt = new AbortController();
    const timer = setTimeout(
      () => attempt.abort(new Error(`timed out after ${this.options.timeoutMs} ms`)),
      this.options.timeoutMs,
    );
    const stop = (): void => attempt.abort(new Error('stopping'));
    stopping.addEventListener('abort', stop, { once: true });
    try {
      const url = httpUrlOf(target, this.options.allowPrivateAddresses);
      const bytes = Buffer.from(body, 'utf8');
      if (bytes.length > MAX_REQUEST_BYTES) {
        throw new Refusal(`body of ${bytes.length} bytes is over ${MAX_REQUEST_BYTES}`);
      }
      const lookup = this.options.allowPrivateAddresses
        ? undefined
        : pinnedLookup(await abortable(publicAddressesOf(url.hostname), attempt.signal));
      const answer = await send(url, headers, bytes, lookup, attempt.signal);
      return { kind: 'answered', ...answer, durationMs: elapsed() };
    } catch (error) {
      if (stopping.aborted) {
        return { kind: 'stopped', durationMs: elapsed() };
      }
      if (error instanceof Refusal || error instanceof NonPublicAddressError) {
        return { kind: 'refused', error: `refused: ${error.message}`, durationMs: elapsed() };
      }
      const reason: unknown = attempt.signal.aborted ? attempt.signal.reason : error;
      return { kind: 'unreachable', error: describe(reason), durationMs: elapsed() };
    } finally {
      clearTimeout(timer);
      stopping.removeEventListener('abort', stop);
    }
  }
}

/** The URL to call: https, or http too where private addresses are allowed (as the gateway registers them). */
function httpUrlOf(target: string, allowPlainHttp: boolean): URL {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new Refusal('not a URL');
  }
  const schemes = allowPlainHttp ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    throw new Refusal(`${url.protocol} URLs are not called (${schemes.join(' or ')} only)`);
  }
  return url;
}

/** A socket lookup that answers with the addresses already checked, never asking DNS again. */
function pinnedLookup(addresses: string[]): LookupFunction {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  return (_hostname, options, callback) => {
    const family = typeof options.family === 'number' ? options.family : 0;
    const wanted = entries.filter((entry) => family === 0 || entry.family === family);
    if (wanted.length === 0) {
      callback(new Error(`no IPv${family} address`), '', 0);
    } else if (options.all) {
      callback(null, wanted);
    } else {
      callback(null, wanted[0].address, wanted[0].family);
    }
  };
}

/** `promise`, or the signal's reason as soon as it aborts (a DNS lookup cannot be cancelled). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => reject(signal.reason);
    if (signal.aborted) {
      abort();
      return;
    }
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** One POST; resolves with the status and the first MAX_ANSWER_BYTES of the answer. */
function send(
  url: URL,
  headers: Record<string, string>,
  body: Buffer,
  lookup: LookupFunction | undefined,
  signal: AbortSignal,
): Promise<{ status: number; location: string | null; body: string }> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(body.length) },
        // A connection of its own each time: nothing pooled outlives its check.
        agent: false,
        ...(lookup ? { lookup } : {}),
        signal,
      },
      (answer) => readBounded(answer, resolve),
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Reads at most MAX_ANSWER_BYTES, then drops the connection; the status counts whatever follows. */
function readBounded(
  answer: IncomingMessage,
  resolve: (value: { status: number; location: string | null; body: string }) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const finish = (): void => {
    resolve({
      status: answer.statusCode ?? 0,
      location: answer.headers.location ?? null,
      body: Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString('utf8'),
    });
  };
  answer.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_ANSWER_BYTES) {
      finish();
      answer.destroy();
    }
  });
  answer.on('end', finish);
  answer.on('close', finish);
  answer.on('error', finish);
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code && !error.message.includes(code) ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
