import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { generatePrivateKey } from 'viem/accounts';
import { eventually } from '@sts/app-worker-testing';
import {
  ConsoleBrowser,
  ConsoleFleet,
  goToPage,
  sessionApi,
  signInAndLinkPaper,
} from './console-fleet';

jest.setTimeout(90_000);

/**
 * Issue 58: webhooks in the console, in Debian's Chromium against the fleet
 * (its notifier delivers). The endpoints' receiver is on loopback, which the
 * gateway and the dispatcher accept only with WEBHOOKS_ALLOW_PRIVATE_ADDRESSES
 * (as in `npm start`). A URL the API refuses is shown next to its field; a
 * create shows the signing secret once, with a copy button, and a reload
 * shows it no more; the list equals GET /webhooks; a test becomes a delivery
 * row, pending then delivered, whose request the receiver verifies with the
 * secret the page showed; an endpoint answering 503 shows the status code,
 * the error and the next attempt, and turns failing; a delete asks first.
 * Any console error the step did not provoke fails it.
 * UPDATE_CONSOLE_SCREENSHOTS=1 writes webhook-secret.png and webhooks.png into apps/console/docs/.
 */
const SCREENSHOTS = process.env['UPDATE_CONSOLE_SCREENSHOTS']
  ? resolve(__dirname, '../../apps/console/docs')
  : undefined;
const NONE = '—';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on 127.0.0.1: every request kept; `/down` answers 503, anything else 204. */
class Receiver {
  readonly received: Received[] = [];
  private server?: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '/';
        this.received.push({
          path,
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        response.writeHead(path === '/down' ? 503 : 204).end();
      });
    });
    await new Promise<void>((done) => this.server!.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((done) => this.server?.close(done) ?? done(undefined));
  }
}

describe('webhooks in a browser', () => {
  const receiver = new Receiver();
  const fleet = new ConsoleFleet({
    env: { WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'true', WEBHOOKS_POLL_MS: '100' },
  });
  let browser: ConsoleBrowser;
  let page: ConsoleBrowser['page'];
  let hookUrl = '';
  let secret = '';
  let webhookId = '';

  const api = (method: string, path: string, body?: unknown) =>
    sessionApi(page, fleet.baseUrl)(method, path, body);
  const until = (what: string, check: () => Promise<boolean>, timeoutMs = 15_000) =>
    eventually(async () => (await check()) || undefined, what, { timeoutMs, intervalMs: 250 });
  const row = (id: string) => page.locator(`[data-testid="webhook-row"][data-webhook-id="${id}"]`);
  const deliveryRow = (messageId: string) =>
    page.locator(`[data-testid="delivery-row"][data-message-id="${messageId}"]`);
  const cell = (messageId: string, name: string) =>
    deliveryRow(messageId).getByTestId(`delivery-${name}`).innerText();

  /** Fills the form and adds the endpoint; the page's secret panel, once shown. */
  async function addWebhook(url: string, events: string[], description: string) {
    await page.getByLabel('URL', { exact: true }).fill(url);
    for (const event of ['trade.status_changed', 'trade.fill', 'trade.failed']) {
      await page.getByRole('checkbox', { name: event }).setChecked(events.includes(event));
    }
    await page.getByLabel('Format', { exact: true }).selectOption('standard');
    await page.getByLabel('Description', { exact: true }).fill(description);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const panel = page.getByTestId('webhook-secret-panel');
    await panel.waitFor();
    return panel;
  }

  /** Sends a test from the endpoint's row; the message id the page names. */
  async function sendTest(url: string): Promise<string> {
    await page.getByRole('button', { name: `Send a test to ${url}` }).click();
    const message = page.getByTestId('webhooks-message');
    await message.waitFor();
    return /Test delivery (msg_[0-9a-f]{32}) owed to /.exec(await message.innerText())![1]!;
  }

  beforeAll(async () => {
    await receiver.start();
    browser = await new ConsoleBrowser(
      [generatePrivateKey()],
      SCREENSHOTS ?? join(fleet.harness.logDir, 'screenshots'),
    ).start();
    await fleet.start();
    page = browser.page;
    await browser.grantClipboard(new URL(fleet.baseUrl).origin);
    await signInAndLinkPaper(page, fleet.baseUrl, browser.accounts[0].address.toLowerCase(), []);
    hookUrl = `${receiver.url}/hooks/sts`;
  }, 120_000);

  afterAll(async () => {
    await browser?.stop();
    await fleet.stop();
    await receiver.stop();
  });

  afterEach(() => {
    expect(browser.errors.splice(0)).toEqual([]);
  });

  it('shows a refused URL next to its field, then the new secret once, with a copy button', async () => {
    await goToPage(page, 'Webhooks', 'Webhooks');
    await page.getByText('No webhooks yet').waitFor();

    browser.expectRefusal({ status: 400, url: /\/api\/v1\/webhooks$/ });
    await page.getByLabel('URL', { exact: true }).fill('ftp://127.0.0.1/hooks');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const urlError = page.locator('#url-error');
    await urlError.waitFor();
    expect(await urlError.innerText()).toMatch(/^url must be an https: or http: URL/);
    expect(await page.getByLabel('URL', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect((await api('GET', '/webhooks')).body).toEqual({ webhooks: [] });

    const panel = await addWebhook(hookUrl, ['trade.status_changed', 'trade.fill'], 'desk alerts');
    secret = await page.getByTestId('webhook-secret').inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(await panel.getByRole('alert').innerText()).toMatch(
      /^Shown this once: copy it now .* It is not shown again, not after a reload/,
    );
    // The focus moves to the secret: the form is done.
    expect(await page.evaluate('document.activeElement?.id')).toBe('webhook-secret-title');
    await panel.getByRole('button', { name: 'Copy' }).click();
    await panel.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    await browser.screenshot('webhook-secret');

    // The list is GET /webhooks, which never holds the secret.
    const { body } = await api('GET', '/webhooks');
    expect(body.webhooks).toEqual([
      expect.objectContaining({
        url: hookUrl,
        events: ['trade.status_changed', 'trade.fill'],
        format: 'standard',
        description: 'desk alerts',
        status: 'active',
      }),
    ]);
    expect(JSON.stringify(body)).not.toContain(secret);
    webhookId = body.webhooks[0].id;
    const listed = row(webhookId);
    await listed.waitFor();
    expect(await listed.getByTestId('webhook-events').innerText()).toMatch(
      /trade\.status_changed\s*trade\.fill/,
    );
    expect(await listed.getByTestId('webhook-status').innerText()).toBe('active');
    expect(await listed.locator('td').nth(3).innerText()).toBe('desk alerts');
    // The form is empty again, for the next one.
    expect(await page.getByLabel('URL', { exact: true }).inputValue()).toBe('');

    // Gone after a reload: the page kept it nowhere.
    await page.reload();
    await row(webhookId).waitFor();
    expect(await page.getByTestId('webhook-secret-panel').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
  });

  it('sends a test: a delivery row, pending then delivered, signed with the secret shown', async () => {
    const messageId = await sendTest(hookUrl);
    await deliveryRow(messageId).waitFor();
    expect(await deliveryRow(messageId).getAttribute('data-status')).toMatch(
      /^(pending|delivered)$/,
    );
    // The page reads the deliveries again while one is pending.
    await until(
      'the test delivered',
      async () => (await cell(messageId, 'status')) === 'delivered',
    );
    expect(await cell(messageId, 'attempts')).toBe('1');
    expect(await cell(messageId, 'last-code')).toBe('204');
    expect(await cell(messageId, 'last-error')).toBe(NONE);
    expect(await cell(messageId, 'next-attempt')).toBe(NONE);
    const { body } = await api('GET', `/webhooks/${webhookId}/deliveries`);
    expect(body.deliveries).toEqual([
      expect.objectContaining({
        message_id: messageId,
        event_type: 'webhook.test',
        status: 'delivered',
        attempts: 1,
        attempt_log: [expect.objectContaining({ status_code: 204, error: null })],
        next_attempt_at: null,
      }),
    ]);

    // What the receiver got verifies with the secret the page showed, and no other.
    const request = receiver.received.find((one) => one.headers['webhook-id'] === messageId);
    expect(request?.path).toBe('/hooks/sts');
    const headers = request!.headers as Record<string, string>;
    expect(new StandardWebhook(secret).verify(request!.body, headers)).toEqual({
      type: 'webhook.test',
      timestamp: expect.any(String),
      data: { webhook_id: webhookId, message: 'test' },
    });
    const other = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    expect(() => new StandardWebhook(other).verify(request!.body, headers)).toThrow();
  });

  it('shows an endpoint that answers 503: the status code, the error, the next attempt, failing', async () => {
    const downUrl = `${receiver.url}/down`;
    const panel = await addWebhook(downUrl, ['trade.failed'], 'answers 503');
    await panel.getByRole('button', { name: 'I have stored it' }).click();
    expect(await page.getByTestId('webhook-secret-panel').count()).toBe(0);
    const { body } = await api('GET', '/webhooks');
    const down = body.webhooks.find((one: { url: string }) => one.url === downUrl);

    const messageId = await sendTest(downUrl);
    await deliveryRow(messageId).waitFor();
    await until('the 503 shown', async () => (await cell(messageId, 'last-code')) === '503');
    expect(await cell(messageId, 'status')).toBe('pending');
    expect(await cell(messageId, 'last-error')).toMatch(/503/);
    const due = await deliveryRow(messageId)
      .getByTestId('delivery-next-attempt')
      .getAttribute('data-at');
    expect(Date.parse(String(due))).toBeGreaterThan(Date.now() - 60_000);
    expect(await cell(messageId, 'next-attempt')).not.toBe(NONE);
    // The list is read with the deliveries: the endpoint turns failing, since when said.
    await until(
      'the endpoint failing',
      async () =>
        (await row(down.id).getByTestId('webhook-status').getAttribute('data-status')) ===
        'failing',
    );
    expect(await row(down.id).getByTestId('webhook-status').innerText()).toMatch(
      /^failing\s+deliveries failing since .+, retried$/,
    );
    expect((await api('GET', `/webhooks/${down.id}`)).body.status).toBe('failing');
    await browser.screenshot('webhooks');
  });

  it('deletes after a confirmation: "Keep it" sends nothing; confirmed, its pending deliveries are canceled', async () => {
    const { body } = await api('GET', '/webhooks');
    const down = body.webhooks.find((one: { url: string }) => one.url.endsWith('/down'));
    const deleteButton = page.getByRole('button', { name: `Delete the webhook to ${down.url}` });
    const dialog = page.getByTestId('delete-webhook-dialog');

    await deleteButton.click();
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    expect(await dialog.isVisible()).toBe(false);
    expect((await api('GET', `/webhooks/${down.id}`)).status).toBe(200);

    await deleteButton.click();
    expect(await dialog.innerText()).toContain(down.url);
    await dialog.getByRole('button', { name: 'Delete webhook' }).click();
    await row(down.id).waitFor({ state: 'detached' });
    expect(await page.getByTestId('webhooks-message').innerText()).toBe(
      `Deleted the webhook to ${down.url}; its pending deliveries were canceled.`,
    );
    expect((await api('GET', `/webhooks/${down.id}`)).status).toBe(404);
    expect(
      await fleet.harness.gateway.query(
        'SELECT DISTINCT status FROM webhook_deliveries WHERE endpoint_id = $1',
        [down.id],
      ),
    ).toEqual([{ status: 'canceled' }]);

    await page.getByRole('button', { name: `Delete the webhook to ${hookUrl}` }).click();
    await dialog.getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByText('No webhooks yet').waitFor();
    expect((await api('GET', '/webhooks')).body).toEqual({ webhooks: [] });
  });
});
