// The gateway's e2e harness (real gateway, operator tool); no dispatcher runs beside it.
import { GatewayHarness } from '@sts/app-gateway-testing';
import { runCli } from '../src/cli';

jest.setTimeout(60_000);

/** A public address: the gateway's address rule passes without a name server. */
const PUBLIC_URL = 'https://93.184.215.14/hooks/sts';
const UUID = '[0-9a-f-]{36}';

/**
 * `sts webhooks` against a gateway: add (the secret printed once, with the
 * line saying so), list, show, test, deliveries (an attempt as the
 * dispatcher records it), delete; `--json` as the API answers; a refusal
 * printed with its code, and missing flags as a usage error.
 */
describe('sts webhooks', () => {
  const gateway = new GatewayHarness();

  beforeAll(() => gateway.start());
  afterAll(() => gateway.stop());

  const sts = async (apiKey: string, ...argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const exitCode = await runCli(argv, {
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
      env: { STS_API_URL: gateway.baseUrl, STS_API_KEY: apiKey },
    });
    return { exitCode, stdout, stderr };
  };

  it('adds, lists, shows, tests, reads the deliveries and deletes', async () => {
    const { apiKey } = await gateway.userWithKey('webhooks:read,webhooks:write');
    const headers = { 'x-api-key': apiKey };

    const added = await sts(
      apiKey,
      'webhooks',
      'add',
      '--url',
      PUBLIC_URL,
      '--events',
      'trade.status_changed,trade.fill',
      '--description',
      'desk alerts',
    );
    expect(added).toMatchObject({ exitCode: 0, stderr: '' });
    const id = new RegExp(`^webhook {6}(${UUID})$`, 'm').exec(added.stdout)![1]!;
    const secret = /^secret {7}(whsec_\S+)$/m.exec(added.stdout)![1]!;
    expect(added.stdout).toMatch(/^events {7}trade\.status_changed, trade\.fill$/m);
    expect(added.stdout).toMatch(/^format {7}standard$/m);
    expect(added.stdout).toMatch(/^This secret is shown once: store it now\./m);

    const list = await sts(apiKey, 'webhooks', 'list');
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toMatch(/^ID +STATUS +FORMAT +EVENTS +URL +DESCRIPTION$/m);
    expect(list.stdout).toMatch(
      new RegExp(
        `^${id} +active +standard +trade\\.status_changed,trade\\.fill +https://93\\.184\\.215\\.14/hooks/sts +desk alerts$`,
        'm',
      ),
    );
    const show = await sts(apiKey, 'webhooks', 'show', id);
    expect(show.exitCode).toBe(0);
    expect(show.stdout).toMatch(/^status {7}active$/m);
    expect(show.stdout).toMatch(/^description {2}desk alerts$/m);
    // The secret was printed once, by the add.
    expect(list.stdout + show.stdout).not.toContain(secret);

    const tested = await sts(apiKey, 'webhooks', 'test', id);
    expect(tested.exitCode).toBe(0);
    const messageId = /^test delivery (msg_[0-9a-f]{32}) owed to webhook /.exec(tested.stdout)![1]!;
    const pending = await sts(apiKey, 'webhooks', 'deliveries', id);
    expect(pending.stdout).toMatch(
      /^DELIVERY +EVENT +STATUS +ATTEMPTS +LAST CODE +NEXT ATTEMPT +CREATED +MESSAGE +LAST ERROR$/m,
    );
    expect(pending.stdout).toMatch(
      new RegExp(`^ *\\d+ +webhook\\.test +pending +0 +- +\\S+Z +\\S+Z +${messageId}$`, 'm'),
    );
    // An attempt as the dispatcher records it: the receiver answered 503, retried later.
    await gateway.query(
      `UPDATE webhook_deliveries SET attempts = 1, attempt_log = $2::jsonb,
         next_attempt_at = '2026-01-05T10:02:16Z' WHERE message_id = $1`,
      [
        messageId,
        JSON.stringify([
          {
            at: '2026-01-05T10:02:11.000Z',
            status_code: 503,
            error: 'answered 503',
            duration_ms: 184,
          },
        ]),
      ],
    );
    const retried = await sts(apiKey, 'webhooks', 'deliveries', id, '--limit', '1');
    expect(retried.stdout).toMatch(
      new RegExp(
        `^ *\\d+ +webhook\\.test +pending +1 +503 +2026-01-05T10:02:16\\.000Z +\\S+Z +${messageId} +answered 503$`,
        'm',
      ),
    );

    // --json: the API's answers as they come.
    const api = async (path: string) => (await gateway.request('GET', path, { headers })).body;
    const json = async (...argv: string[]) =>
      JSON.parse((await sts(apiKey, '--json', 'webhooks', ...argv)).stdout);
    expect(await json('list')).toEqual(await api('/api/v1/webhooks'));
    expect(await json('show', id)).toEqual(await api(`/api/v1/webhooks/${id}`));
    expect(await json('deliveries', id, '--limit', '1')).toEqual(
      await api(`/api/v1/webhooks/${id}/deliveries?limit=1`),
    );
    const secondTest = await json('test', id);
    expect(secondTest).toEqual({ message_id: expect.stringMatching(/^msg_[0-9a-f]{32}$/) });
    // Two deliveries, one per page: the human form names the next page's command.
    const paged = await sts(apiKey, 'webhooks', 'deliveries', id, '--limit', '1');
    expect(paged.stdout).toContain(secondTest.message_id);
    const next = new RegExp(
      `^older deliveries: sts webhooks deliveries ${id} --before (\\d+)$`,
      'm',
    );
    const before = next.exec(paged.stdout)![1]!;
    const older = await sts(apiKey, 'webhooks', 'deliveries', id, '--before', before);
    expect(older.stdout).toContain(messageId);
    expect(older.stdout).not.toMatch(next);

    const deleted = await sts(apiKey, 'webhooks', 'delete', id);
    expect(deleted).toMatchObject({ exitCode: 0, stderr: '' });
    expect(deleted.stdout).toBe(
      `webhook ${id} deleted: nothing more is sent to it, its pending deliveries canceled\n`,
    );
    expect((await sts(apiKey, 'webhooks', 'list')).stdout).toBe('no webhooks\n');
    const gone = await sts(apiKey, 'webhooks', 'show', id);
    expect(gone.exitCode).toBe(1);
    expect(gone.stderr).toMatch(
      /^error: 404 webhook_not_found: webhook not found \(request id \S+\)\n$/,
    );

    const withJson = await json(
      'add',
      '--url',
      PUBLIC_URL,
      '--events',
      'trade.failed',
      '--format',
      'slack',
    );
    expect(withJson).toEqual({
      id: expect.stringMatching(new RegExp(`^${UUID}$`)),
      url: PUBLIC_URL,
      events: ['trade.failed'],
      format: 'slack',
      description: '',
      created_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_/),
    });
    expect(await json('delete', withJson.id)).toEqual({ id: withJson.id, deleted: true });
  });

  it('prints a refusal with its code and request id; missing flags are a usage error', async () => {
    const { apiKey } = await gateway.userWithKey('webhooks:read,webhooks:write');
    const refused = await sts(
      apiKey,
      'webhooks',
      'add',
      '--url',
      'http://93.184.215.14/hooks',
      '--events',
      'trade.fill',
    );
    expect(refused.exitCode).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(
      /^error: 400 invalid_request: .*must be an https: URL.* \(request id \S+\)\n$/,
    );
    const unknownEvent = await sts(
      apiKey,
      '--json',
      'webhooks',
      'add',
      '--url',
      PUBLIC_URL,
      '--events',
      'trade.fill,trade.exploded',
    );
    expect(unknownEvent.exitCode).toBe(1);
    expect(JSON.parse(unknownEvent.stdout)).toMatchObject({
      status: 400,
      code: 'invalid_request',
      error: expect.stringMatching(/events must be among/),
      request_id: expect.any(String),
    });
    expect((await sts(apiKey, 'webhooks', 'list')).stdout).toBe('no webhooks\n');

    const usage = await sts(apiKey, 'webhooks', 'add', '--url', PUBLIC_URL);
    expect(usage.exitCode).toBe(2);
    expect(usage.stderr).toMatch(/required option '--events <list>' not specified/);
  });
});
