import { AppError, NonPublicAddressError } from '@sts/platform';
import { checkWebhookHost, webhookUrl, type WebhookUrlRules } from './webhook-url';

const PUBLIC_ONLY: WebhookUrlRules = { allowPrivateAddresses: false };
const PRIVATE_ALLOWED: WebhookUrlRules = { allowPrivateAddresses: true };
const TELEGRAM = 'https://api.telegram.org/bot123456:AAH-x_y9/sendMessage?chat_id=-1001234';

/** The 400's text, or null when the URL passes. */
function refusal(text: string, format = 'standard', rules = PUBLIC_ONLY): string | null {
  try {
    webhookUrl(text, format as 'standard', rules);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('invalid_request');
    return (error as AppError).message;
  }
}

describe('a webhook URL', () => {
  it('is an absolute https: URL, normalized as it will be called', () => {
    expect(webhookUrl('https://Hooks.Example.com', 'standard', PUBLIC_ONLY).href).toBe(
      'https://hooks.example.com/',
    );
    expect(webhookUrl('https://0x7f.1/x', 'standard', PUBLIC_ONLY).hostname).toBe('127.0.0.1');
    expect(refusal('hooks.example.com/x')).toMatch(/absolute URL/);
    expect(refusal('/relative')).toMatch(/absolute URL/);
  });

  it('is https: only, unless private addresses are allowed (then http: too)', () => {
    expect(refusal('http://hooks.example.com/x')).toBe(
      'url must be an https: URL (http: is refused)',
    );
    expect(refusal('http://127.0.0.1:8080/x', 'standard', PRIVATE_ALLOWED)).toBeNull();
    expect(refusal('ftp://hooks.example.com/x', 'standard', PRIVATE_ALLOWED)).toMatch(
      /https: or http:/,
    );
    expect(refusal('file:///etc/passwd')).toMatch(/https: URL/);
  });

  it('carries no credentials', () => {
    expect(refusal('https://user:pass@hooks.example.com/x')).toMatch(/credentials/);
    expect(refusal('https://user@hooks.example.com/x')).toMatch(/credentials/);
  });

  it('is at most 2048 characters once normalized', () => {
    expect(refusal(`https://hooks.example.com/${'a'.repeat(2000)}`)).toBeNull();
    // Each space becomes %20: short as sent, too long as it would be called.
    expect(refusal(`https://hooks.example.com/${' '.repeat(700)}x`)).toMatch(/2048/);
  });

  it('is a Bot API sendMessage URL with a chat_id for telegram', () => {
    expect(refusal(TELEGRAM, 'telegram')).toBeNull();
    for (const url of [
      'https://api.telegram.org/bot123456:AAH-x_y9/sendMessage',
      'https://api.telegram.org/bot123456:AAH-x_y9/sendMessage?chat_id=',
      'https://api.telegram.org/bot123456:AAH-x_y9/getUpdates?chat_id=1',
      'https://hooks.example.com/x?chat_id=1',
    ]) {
      expect(refusal(url, 'telegram')).toMatch(/Telegram Bot API sendMessage URL with a chat_id/);
    }
  });
});

describe("a webhook URL's host", () => {
  const url = (text: string) => new URL(text);
  const resolvesTo =
    (...addresses: string[]) =>
    async (host: string): Promise<string[]> => {
      const privateOne = addresses.find((address) => address.startsWith('10.'));
      if (privateOne) {
        throw new NonPublicAddressError(host, privateOne);
      }
      return addresses;
    };
  const failsWith = (code: string) => async (): Promise<string[]> => {
    throw Object.assign(new Error(`getaddrinfo ${code}`), { code });
  };
  const outcome = (promise: Promise<void>) =>
    promise.then(
      () => 'accepted',
      (error: AppError) =>
        `${error.code}: ${error.message}${error.reason ? ` (${error.reason})` : ''}`,
    );

  it('must resolve to public addresses only, the refusal naming the address', async () => {
    const host = url('https://hooks.example.com/x');
    expect(await outcome(checkWebhookHost(host, PUBLIC_ONLY, resolvesTo('93.184.215.14')))).toBe(
      'accepted',
    );
    expect(
      await outcome(checkWebhookHost(host, PUBLIC_ONLY, resolvesTo('93.184.215.14', '10.1.2.3'))),
    ).toMatch(
      /^invalid_request: url: hooks.example.com resolves to 10.1.2.3, which is not a public address/,
    );
  });

  it('names a literal address as itself, and checks it with the real rules', async () => {
    expect(await outcome(checkWebhookHost(url('https://10.0.0.1/x'), PUBLIC_ONLY))).toMatch(
      /^invalid_request: url: 10.0.0.1 is not a public address/,
    );
    expect(await outcome(checkWebhookHost(url('https://[::1]/x'), PUBLIC_ONLY))).toMatch(
      /^invalid_request: url: ::1 is not a public address/,
    );
    expect(await outcome(checkWebhookHost(url('https://169.254.169.254/x'), PUBLIC_ONLY))).toMatch(
      /not a public address/,
    );
    expect(await outcome(checkWebhookHost(url('https://93.184.215.14/x'), PUBLIC_ONLY))).toBe(
      'accepted',
    );
  });

  it('resolves nothing where private addresses are allowed', async () => {
    const never = jest.fn(resolvesTo('10.0.0.1'));
    expect(await outcome(checkWebhookHost(url('https://10.0.0.1/x'), PRIVATE_ALLOWED, never))).toBe(
      'accepted',
    );
    expect(never).not.toHaveBeenCalled();
  });

  it('refuses a name that does not exist (400); a failing or slow resolver is a 503', async () => {
    const host = url('https://no-such-host.example/x');
    expect(await outcome(checkWebhookHost(host, PUBLIC_ONLY, failsWith('ENOTFOUND')))).toBe(
      'invalid_request: url: no-such-host.example does not resolve to any address',
    );
    expect(await outcome(checkWebhookHost(host, PUBLIC_ONLY, failsWith('EAI_AGAIN')))).toBe(
      'service_unavailable: the addresses of no-such-host.example cannot be resolved now; retry (dns)',
    );
    const slow = () => new Promise<string[]>(() => undefined);
    expect(await outcome(checkWebhookHost(host, PUBLIC_ONLY, slow, 20))).toBe(
      'service_unavailable: the addresses of no-such-host.example cannot be resolved now; retry (dns)',
    );
  });
});
