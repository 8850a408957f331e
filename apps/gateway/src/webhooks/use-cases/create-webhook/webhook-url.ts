import { isIP } from 'node:net';
import type { WebhookFormat } from '@sts/persistence';
import { AppError, NonPublicAddressError, publicAddressesOf } from '@sts/platform';

/** The longest URL an endpoint may have, as sent and once normalized. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** How long the host's name may take to resolve before the create is answered 503. */
export const WEBHOOK_HOST_LOOKUP_MS = 3_000;

/** `/bot<token>/sendMessage`: the Bot API method a telegram endpoint is called with. */
const TELEGRAM_SEND_MESSAGE = /^\/bot[0-9]+:[A-Za-z0-9_-]+\/sendMessage$/;

const TELEGRAM_FORM =
  'https://api.telegram.org/bot<token>/sendMessage?chat_id=<chat id> (a Telegram Bot API sendMessage URL with a chat_id)';

const REFUSED_RANGES =
  'webhooks are delivered to public addresses only (loopback, private, link-local and reserved ranges are refused)';

export interface WebhookUrlRules {
  /** WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: any address, and `http:` too. */
  allowPrivateAddresses: boolean;
}

function refuse(message: string): never {
  throw new AppError('invalid_request', message);
}

/**
 * The URL as deliveries will call it (WHATWG-normalized, so what is checked
 * is what is called), or a 400 saying what is wrong with it: an absolute
 * `https:` URL (`http:` only where private addresses are allowed, for a
 * receiver on the developer's machine), no credentials, at most
 * MAX_WEBHOOK_URL_LENGTH; for `telegram`, a Bot API sendMessage URL with
 * its chat_id. Its addresses are checked apart (`checkWebhookHost`).
 */
export function webhookUrl(text: string, format: WebhookFormat, rules: WebhookUrlRules): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse('url must be an absolute URL (https://host/path)');
  }
  const schemes = rules.allowPrivateAddresses ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    refuse(
      rules.allowPrivateAddresses
        ? 'url must be an https: or http: URL'
        : `url must be an https: URL (${url.protocol} is refused)`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    refuse('url must not carry credentials (user:password@); a token may go in its path or query');
  }
  if (url.href.length > MAX_WEBHOOK_URL_LENGTH) {
    refuse(`url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters once normalized`);
  }
  if (
    format === 'telegram' &&
    (!TELEGRAM_SEND_MESSAGE.test(url.pathname) || !url.searchParams.get('chat_id'))
  ) {
    refuse(`a telegram webhook's url must be ${TELEGRAM_FORM}`);
  }
  return url;
}

/** What resolves a host to its addresses, refusing a non-public one (`publicAddressesOf`). */
export type HostResolver = (host: string) => Promise<string[]>;

/** Answers of the resolver that say the name does not exist (as opposed to a resolver failing). */
const NO_SUCH_NAME = new Set(['ENOTFOUND', 'ENODATA']);

/**
 * Refuses (400) a URL whose host is, or resolves to, an address that is not
 * public, naming the address, unless private addresses are allowed (then
 * nothing is resolved). A name that does not exist is a 400 too; a resolver
 * that fails or takes longer than WEBHOOK_HOST_LOOKUP_MS is a 503 (retry).
 */
export async function checkWebhookHost(
  url: URL,
  rules: WebhookUrlRules,
  resolve: HostResolver = publicAddressesOf,
  lookupMs = WEBHOOK_HOST_LOOKUP_MS,
): Promise<void> {
  if (rules.allowPrivateAddresses) {
    return;
  }
  const host = url.hostname;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(lookupFailed(host)), lookupMs);
  });
  try {
    await Promise.race([resolve(host), timeout]);
  } catch (error) {
    if (error instanceof NonPublicAddressError) {
      const literal = isIP(host.replace(/^\[|\]$/g, '')) !== 0;
      refuse(
        literal
          ? `url: ${error.address} is not a public address; ${REFUSED_RANGES}`
          : `url: ${host} resolves to ${error.address}, which is not a public address; ${REFUSED_RANGES}`,
      );
    }
    if (NO_SUCH_NAME.has((error as { code?: string }).code ?? '')) {
      refuse(`url: ${host} does not resolve to any address`);
    }
    throw error instanceof AppError ? error : lookupFailed(host, error);
  } finally {
    clearTimeout(timer);
  }
}

const lookupFailed = (host: string, cause?: unknown): AppError =>
  new AppError('service_unavailable', `the addresses of ${host} cannot be resolved now; retry`, {
    reason: 'dns',
    cause,
  });
