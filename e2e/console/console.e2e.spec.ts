import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { Locator } from 'playwright-core';
import { generatePrivateKey } from 'viem/accounts';
import { eventually, type Trader } from '@sts/app-worker-testing';
import {
  ConsoleBrowser,
  ConsoleFleet,
  goToPage,
  TOKEN_TTL_S,
  type PaperKey,
} from './console-fleet';

jest.setTimeout(60_000);

/**
 * Issue 20: the trader console in Debian's Chromium against the fleet on
 * paper venues. A test wallet injected as window.ethereum signs in (SIWE
 * through the development identity provider), adds credentials, links a
 * second wallet, creates trades from the form and watches them move over the
 * notifier socket, amends and cancels one, and sees the maintenance banner
 * come and go; it keeps its session past a token's expiry by renewing it,
 * and a tab without a wallet signs in with the development wallet. Any
 * console error the test did not provoke fails it.
 *
 * Issue 34: Aster runs live (the simulator's Aster dialect), the rest on
 * paper. Every venue name carries PAPER or LIVE; a create with a live leg
 * waits for the trader to confirm trading real money there; "Stop all my
 * trades" asks, then cancels every running trade; a halted venue is marked
 * among the form's choices.
 * UPDATE_CONSOLE_SCREENSHOTS=1 writes the screenshots into apps/console/docs/.
 */
const SCREENSHOTS = process.env['UPDATE_CONSOLE_SCREENSHOTS']
  ? resolve(__dirname, '../../apps/console/docs')
  : undefined;

/** The one venue of the fleet that runs live; the trades the spec makes run on paper. */
const LIVE_VENUE = 'aster';

describe('trader console in a browser', () => {
  const fleet = new ConsoleFleet({ liveDialects: [LIVE_VENUE] });
  let browser: ConsoleBrowser;
  let page: ConsoleBrowser['page'];
  let primary: string;
  let second: string;
  const paperKeys: Record<string, PaperKey> = {};

  const goTo = (link: string, heading: string) => goToPage(page, link, heading);
  const trader = (): Trader => ({
    userId: '',
    wallet: primary,
    headers: {},
    credentials: Object.fromEntries(
      Object.entries(paperKeys).map(([venue, key]) => [venue, { ...key, wallet: primary }]),
    ),
  });
  /** The REST API as the signed-in console calls it, with its session token (as a script would). */
  const api = async (method: string, path: string, body?: unknown) => {
    const { token } = JSON.parse(
      String(await page.evaluate("sessionStorage.getItem('sts-console.session')")),
    ) as { token: string };
    return fetch(`${fleet.baseUrl}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  };
  /** A running trade on paper venues, made through the API: its maker rests, nothing fills it. */
  const createRunningTrade = async () => {
    const created = await api(
      'POST',
      '/trades',
      fleet.harness.gateway.tradeBody(primary, { target_size: '0.002', target_spread: '-1000' }),
    );
    expect(created.status).toBe(202);
    return ((await created.json()) as { trade_id: string }).trade_id;
  };
  /** Every venue named inside `scope`, as "<venue> <MODE>" (the badge's word after the name). */
  const venuesShown = async (scope: Locator) => scope.locator('[data-venue]').allInnerTexts();
  const statusIs = (status: string) =>
    page
      .getByTestId('trade-status')
      .getByText(status, { exact: true })
      .waitFor({ timeout: 20_000 });

  beforeAll(async () => {
    // The browser first: without Chromium the spec stops before it builds and boots a fleet.
    browser = await new ConsoleBrowser(
      [generatePrivateKey(), generatePrivateKey()],
      SCREENSHOTS ?? join(fleet.harness.logDir, 'screenshots'),
    ).start();
    await fleet.start();
    page = browser.page;
    primary = browser.accounts[0].address.toLowerCase();
    second = browser.accounts[1].address.toLowerCase();
  }, 90_000);

  afterAll(async () => {
    await browser?.stop();
    await fleet.stop();
  });

  afterEach(() => {
    // Every step ends clean: no console error it did not provoke on purpose.
    const errors = browser.errors.splice(0);
    expect(errors).toEqual([]);
  });

  it('signs in with the injected wallet (SIWE) and lands on the trades', async () => {
    await page.goto(`${fleet.baseUrl}/console/`);
    await page.getByRole('button', { name: 'Sign in with wallet' }).waitFor();
    await browser.screenshot('sign-in');
    // From the keyboard: the first stop is the sign-in button.
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Sign in with wallet');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Trades' }).waitFor();

    expect(browser.signatures).toHaveLength(1);
    expect(browser.signatures[0].message).toContain(
      `${new URL(fleet.baseUrl).host} wants you to sign in`,
    );
    expect(browser.signatures[0].address.toLowerCase()).toBe(primary);
    // The socket's state is not worded as a venue's mode (LIVE: real money).
    await page.getByTestId('socket-state').getByText('updates: streaming').waitFor();
  });

  it('adds and removes a credential and links a second wallet by signing its challenge', async () => {
    await goTo('Account', 'Account');
    const add = async (venue: string) => {
      paperKeys[venue] = {
        apiKey: `paper-console-${randomBytes(4).toString('hex')}`,
        apiSecret: randomBytes(16).toString('hex'),
      };
      await page.getByLabel('Venue', { exact: true }).selectOption(venue);
      await page.getByLabel('API key', { exact: true }).fill(paperKeys[venue].apiKey);
      await page.getByLabel('API secret', { exact: true }).fill(paperKeys[venue].apiSecret);
      await page.getByRole('button', { name: 'Add credential' }).click();
      await page.getByRole('status').getByText(`Added the ${venue} credential.`).waitFor();
    };
    await add('hyperliquid');
    await add('paradex');
    await add('lighter');
    const credentials = page.getByTestId('credentials-table');
    await credentials.getByRole('cell', { name: 'lighter PAPER', exact: true }).waitFor();
    // Only a preview of the key is ever shown, never the secret.
    const shown = await credentials.innerText();
    expect(shown).toContain(`…${paperKeys['lighter'].apiKey.slice(-4)}`);
    expect(shown).not.toContain(paperKeys['lighter'].apiKey);
    expect(await page.content()).not.toContain(paperKeys['lighter'].apiSecret);

    await page.getByRole('button', { name: `Remove the lighter credential of ${primary}` }).click();
    await credentials
      .getByRole('cell', { name: 'lighter PAPER', exact: true })
      .waitFor({ state: 'detached' });
    await credentials.getByRole('cell', { name: 'paradex PAPER', exact: true }).waitFor();

    // The wallet's other account is offered; it signs the gateway's challenge.
    const address = page.getByLabel('Wallet address');
    await eventuallyValue(
      () => address.inputValue(),
      (value) => value.toLowerCase() === second,
    );
    await page.getByRole('button', { name: 'Sign and link' }).click();
    await page
      .getByTestId('wallets-table')
      .getByText(browser.accounts[1].address.toLowerCase())
      .waitFor();
    expect(browser.signatures.at(-1)?.address.toLowerCase()).toBe(second);
    await browser.screenshot('account');
  });

  it('lists every market with each venue and sorts the funding differences', async () => {
    await goTo('Markets', 'Markets');
    const markets = page.getByTestId('markets-table');
    await markets.getByRole('rowheader', { name: 'BTC', exact: true }).waitFor();
    expect(await markets.getByRole('cell', { name: 'BTC-USD-PERP' }).count()).toBe(1);
    // Each venue named with its mode: the live one LIVE, the rest PAPER.
    await markets
      .getByRole('cell', { name: `${LIVE_VENUE} LIVE`, exact: true })
      .first()
      .waitFor();
    for (const shown of await venuesShown(page.getByRole('main'))) {
      expect(shown).toMatch(shown.startsWith(LIVE_VENUE) ? / LIVE$/ : / PAPER$/);
    }
    const differences = page.getByTestId('funding-differences');
    const header = differences.getByRole('columnheader', { name: /Difference/ });
    expect(await header.getAttribute('aria-sort')).toBe('descending');
    await header.getByRole('button').focus();
    await page.keyboard.press('Enter');
    expect(await header.getAttribute('aria-sort')).toBe('ascending');
    await browser.screenshot('markets');
  });

  it('shows an API validation error next to the field it concerns', async () => {
    await goTo('New trade', 'New trade');
    await page.getByLabel('Target spread').fill('-1000');
    await page.getByLabel('Target size').fill('0');
    browser.expectRefusal({ status: 400, url: /\/api\/v1\/trades$/ });
    await page.getByRole('button', { name: 'Create trade' }).click();
    const error = page.locator('#target_size-error');
    await error.waitFor();
    expect(await error.innerText()).toContain('target_size');
    expect(await page.getByLabel('Target size').getAttribute('aria-invalid')).toBe('true');
    // No other field is blamed.
    expect(await page.locator('.field-error').count()).toBe(1);
  });

  it('creates a trade from the form beside the live spread, and watches it reach completed', async () => {
    // The spread panel: both venues' best bid and ask, the spread, and the condition now.
    const panel = page.getByTestId('spread-panel');
    await panel.getByTestId('condition-met').getByText('yes').waitFor();
    for (const cell of ['long-bid', 'long-ask', 'short-bid', 'short-ask', 'spread']) {
      expect(await panel.getByTestId(cell).innerText()).toMatch(/^-?\d+(\.\d+)?$/);
    }
    await page.getByLabel('Target size').fill('0.002');
    await browser.screenshot('new-trade');
    await page.getByRole('button', { name: 'Create trade' }).click();
    await page.getByRole('heading', { level: 2, name: 'Status timeline' }).waitFor();
    const tradeId = /\/trades\/([0-9a-f-]{36})$/.exec(page.url())?.[1];
    expect(tradeId).toBeDefined();

    await statusIs('active');
    const order = await fleet.harness.waitForRestingOrder(trader(), 'hyperliquid');
    await fleet.harness.takeFromMaker(order, order.size);
    await statusIs('completed');

    const timeline = await page.getByTestId('timeline').innerText();
    expect(timeline).toMatch(/active[\s\S]*completed/);
    const log = page.getByTestId('execution-log');
    await log.getByRole('cell', { name: 'hedge_filled', exact: true }).waitFor();
    expect(
      await log.getByRole('cell', { name: 'maker_fill', exact: true }).count(),
    ).toBeGreaterThan(0);
    // The charts (lightweight-charts, on canvas; e2e/console/charts.e2e.spec.ts reads them closely).
    await page.getByTestId('fills-chart').locator('canvas').first().waitFor();
    await page
      .getByTestId('legend-hedge-fills')
      .getByText(/^[1-9]\d*, last /)
      .waitFor();
    expect(await page.getByTestId('filled').innerText()).toBe('0.002 of 0.002');
    expect(await venuesShown(page.getByTestId('legs'))).toEqual([
      'hyperliquid PAPER',
      'paradex PAPER',
    ]);
    await browser.screenshot('trade-detail');
  });

  it("amends a running trade's size and cancels it", async () => {
    await goTo('New trade', 'New trade');
    await page.getByLabel('Target spread').fill('-1000');
    await page.getByLabel('Target size').fill('0.004');
    await page.getByRole('button', { name: 'Create trade' }).click();
    await statusIs('active');

    await page.getByLabel('New target size').fill('0.006');
    await page.getByRole('button', { name: 'Amend' }).click();
    await page
      .getByTestId('manage-result')
      .getByText(/Amendment (sent|saved)/)
      .waitFor();
    await page.getByTestId('filled').getByText('0 of 0.006').waitFor();

    await page.getByRole('button', { name: 'Cancel trade' }).click();
    await statusIs('canceled');
    expect(await page.getByTestId('timeline').innerText()).toContain('canceled');
  });

  it('names every venue on the trades list and on a trade’s detail with its mode: PAPER here', async () => {
    await goTo('Trades', 'Trades');
    const table = page.getByTestId('trades-table');
    await table.getByText('completed').waitFor();
    // Two trades, each with a long and a short venue.
    expect(await venuesShown(table)).toEqual([
      'hyperliquid PAPER',
      'paradex PAPER',
      'hyperliquid PAPER',
      'paradex PAPER',
    ]);
    await table.getByRole('link').first().click();
    await page.getByRole('heading', { level: 2, name: 'Status timeline' }).waitFor();
    expect(await venuesShown(page.getByRole('heading', { level: 1 }))).toEqual([
      'hyperliquid PAPER',
      'paradex PAPER',
    ]);
    expect(await venuesShown(page.getByTestId('legs'))).toEqual([
      'hyperliquid PAPER',
      'paradex PAPER',
    ]);
  });

  it('shows the maintenance banner when an operator sets maintenance, and drops it when cleared', async () => {
    await goTo('Trades', 'Trades');
    await page.getByTestId('trades-table').getByText('completed').waitFor();
    await fleet.harness.gateway.ops(
      'maintenance',
      'set',
      '_system',
      'on',
      '--reason',
      'console e2e upgrade',
    );
    const banner = page.getByTestId('maintenance-banner');
    await banner.getByText(/System maintenance.*console e2e upgrade/).waitFor({ timeout: 15_000 });
    await browser.screenshot('trades');
    await fleet.harness.gateway.ops('maintenance', 'set', '_system', 'off');
    await banner.waitFor({ state: 'detached', timeout: 15_000 });

    // The kill switch arrives as a maintenance frame of its own (`_kill_switch`).
    await fleet.harness.gateway.ops('kill-switch', 'on', '--reason', 'console e2e halt');
    await banner.getByText(/Kill switch on.*console e2e halt/).waitFor({ timeout: 15_000 });
    await fleet.harness.gateway.ops('kill-switch', 'off');
    await banner.waitFor({ state: 'detached', timeout: 15_000 });
  });

  it('puts a trade made elsewhere on the trades list and moves its status, over the socket', async () => {
    // Every trade on the list has ended, so the list polls nothing: only the socket can bring these.
    const tradeId = await createRunningTrade();
    const row = page.locator(`tr[data-trade-id="${tradeId}"]`);
    await row.getByText('active', { exact: true }).waitFor({ timeout: 15_000 });
    expect((await api('DELETE', `/trades/${tradeId}`)).status).toBe(202);
    await row.getByText('canceled', { exact: true }).waitFor({ timeout: 15_000 });
  });

  it('shows a status that changed while its live connection was down, once it is back', async () => {
    // The notifier does not replay lifecycle events: a page must read again when its
    // socket listens (again). Held here: every socket the page opens is closed at once
    // (1013, try again later) until the trade has been canceled behind the page's back.
    const tradeId = await createRunningTrade();
    const status = async () =>
      ((await (await api('GET', `/trades/${tradeId}`)).json()) as { status: string }).status;
    await eventually(async () => (await status()) === 'active' || undefined, 'trade active', {
      timeoutMs: 15_000,
    });
    let held = true;
    await page.routeWebSocket(/\/api\/v1\/ws$/, (socket) => {
      if (held) {
        void socket.close({ code: 1013, reason: 'held by the spec' });
      } else {
        socket.connectToServer();
      }
    });
    // A page load of its own: the console opens a new socket, and the route holds it.
    await page.goto(`${fleet.baseUrl}/console/trades/${tradeId}`);
    await statusIs('active');
    expect((await api('DELETE', `/trades/${tradeId}`)).status).toBe(202);
    await eventually(async () => (await status()) === 'canceled' || undefined, 'trade canceled', {
      timeoutMs: 15_000,
    });
    held = false;
    await statusIs('canceled');
    await page
      .getByTestId('timeline')
      .getByText('read when the live connection opened')
      .waitFor({ timeout: 5_000 });
  });

  it('stops all the trader’s running trades from the trades page, after saying what that does', async () => {
    await goTo('Trades', 'Trades');
    const running = [await createRunningTrade(), await createRunningTrade()];
    const rows = running.map((tradeId) => page.locator(`tr[data-trade-id="${tradeId}"]`));
    for (const row of rows) {
      await row.getByText('active', { exact: true }).waitFor({ timeout: 15_000 });
    }

    // From the keyboard: the safe answer has the focus, and Escape leaves everything running.
    const stopAll = page.getByRole('button', { name: 'Stop all my trades' });
    await stopAll.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Stop all your trades?' });
    await dialog.waitFor();
    const said = await dialog.innerText();
    expect(said).toContain('cancels every running trade of yours');
    expect(said).toContain('Positions already filled stay open');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Keep them running');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.getByTestId('stop-all-result').count()).toBe(0);
    for (const tradeId of running) {
      const trade = (await (await api('GET', `/trades/${tradeId}`)).json()) as { status: string };
      expect(trade.status).toBe('active');
    }

    // The focus came back to the button: Enter asks again, Tab reaches the answer that stops them.
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe(
      'Yes, stop all my trades',
    );
    await page.keyboard.press('Enter');
    const summary = await page
      .getByTestId('stop-all-result')
      .getByText(/^Stopped 2 trades: \d canceled, \d cancel sent/)
      .innerText();
    const [, canceled, sent] = /(\d) canceled, (\d) cancel sent/.exec(summary) ?? [];
    expect(Number(canceled) + Number(sent)).toBe(2);
    for (const row of rows) {
      await row.getByText('canceled', { exact: true }).waitFor({ timeout: 15_000 });
    }
  });

  it(`marks ${LIVE_VENUE} LIVE in the form and asks before a create that trades real money there`, async () => {
    await goTo('New trade', 'New trade');
    const shortVenue = page.getByLabel('Short venue');
    await shortVenue.locator(`option[value="${LIVE_VENUE}"]`).waitFor({ state: 'attached' });
    expect(await shortVenue.locator('option').allInnerTexts()).toEqual([
      'hyperliquid (paper)',
      'paradex (paper)',
      'lighter (paper)',
      'extended (paper)',
      `${LIVE_VENUE} (LIVE, real money)`,
    ]);
    // Paper legs are as before: no question (the form's first create showed that).
    await shortVenue.selectOption(LIVE_VENUE);
    await page.locator('#short_exchange-hint').getByText('LIVE', { exact: true }).waitFor();
    await page.getByLabel('Target spread').fill('-1000');
    await page.getByLabel('Target size').fill('0.002');

    const create = page.getByRole('button', { name: 'Create trade' });
    const dialog = page.getByRole('dialog', { name: `Trade real money on ${LIVE_VENUE}?` });
    await create.click();
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain(`${LIVE_VENUE} is a live venue`);
    await browser.screenshot('live-confirmation', { fullPage: false });
    await dialog.getByRole('button', { name: 'Go back' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(page.url()).toMatch(/\/console\/trades\/new$/);

    // Confirmed, the create goes out: this trader has no Aster credential, so the API refuses it.
    browser.expectRefusal({ status: 403, url: /\/api\/v1\/trades$/ });
    await create.click();
    await dialog.getByRole('button', { name: `Trade real money on ${LIVE_VENUE}` }).click();
    await page
      .locator('#form-errors')
      .getByText(new RegExp(`on ${LIVE_VENUE}`))
      .waitFor();
  });

  it('marks a venue whose trading is halted among the form’s venue choices, without blocking it', async () => {
    const longVenue = page.getByLabel('Long venue');
    const lighter = longVenue.locator('option[value="lighter"]');
    await fleet.harness.gateway.ops('maintenance', 'set', 'lighter', 'on', '--reason', 'e2e');
    await eventuallyValue(
      () => lighter.innerText(),
      (label) => label === 'lighter (paper; trading halted)',
    );
    await longVenue.selectOption('lighter');
    await page.getByTestId('venue-halted').waitFor();
    expect(await lighter.isDisabled()).toBe(false);
    await fleet.harness.gateway.ops('maintenance', 'set', 'lighter', 'off');
    await eventuallyValue(
      () => lighter.innerText(),
      (label) => label === 'lighter (paper)',
    );
    await page.getByTestId('venue-halted').waitFor({ state: 'detached' });
  });

  it('renews its session token before it expires: the API and the same socket stay signed in', async () => {
    const stored = async () =>
      JSON.parse(String(await page.evaluate("sessionStorage.getItem('sts-console.session')"))) as {
        token: string;
        expiresAt: string;
      };
    const first = await stored();
    const socketsBefore = browser.socketsOpened;
    await eventually(async () => (await stored()).token !== first.token, 'a renewed token', {
      timeoutMs: TOKEN_TTL_S * 1_000,
      intervalMs: 200,
    });
    // Time itself is what is tested here: the first token's expiry must pass.
    await eventually(
      () => Date.now() > Date.parse(first.expiresAt) + 1_000,
      "the first token's expiry",
      {
        timeoutMs: TOKEN_TTL_S * 1_000 + 2_000,
        intervalMs: 200,
      },
    );
    await goTo('Account', 'Account');
    await page.getByTestId('wallets-table').getByText(primary).waitFor();
    expect(await page.getByTestId('socket-state').innerText()).toBe('updates: streaming');
    expect(browser.socketsOpened).toBe(socketsBefore);
  });

  it('offers the development wallet where config.json says paper, when the browser has none', async () => {
    const tab = await browser.pageWithoutWallet();
    await tab.goto(`${fleet.baseUrl}/console/sign-in`);
    await tab.getByRole('button', { name: 'Use development wallet' }).click();
    await tab.getByRole('heading', { level: 1, name: 'Trades' }).waitFor();
    await tab.getByText('No trades yet.').waitFor();
    const key = String(
      await tab.evaluate("localStorage.getItem('sts-console.development-wallet.keys')"),
    );
    expect(JSON.parse(key)).toHaveLength(1);
    await tab.close();
  });
});

/** Waits for a value read from the page to satisfy `accept` (DOM polling, no fixed sleep). */
async function eventuallyValue(
  read: () => Promise<string>,
  accept: (value: string) => boolean,
): Promise<void> {
  await eventually(async () => accept(await read()), 'a value on the page', {
    timeoutMs: 10_000,
    intervalMs: 100,
  });
}
