import { privateKeyToAccount } from 'viem/accounts';
import { GatewayHarness } from './gateway-harness';

type Operation = Record<string, any>;

interface BodyOperation {
  operationId: string;
  method: string;
  path: string;
  parameters: Array<{ name: string; in: string; schema?: { example?: string } }>;
  example: Record<string, unknown>;
}

/** The key of the wallet the link examples name (private key 0x…02), so a test can sign for it. */
const LINKED_WALLET_KEY = `0x${'0'.repeat(63)}2` as const;

/**
 * The request side of the served OpenAPI document against the gateway itself:
 * every operation with a body has an example the gateway accepts as it stands,
 * and refuses the same body with one unknown field (400). The examples are sent
 * in the order a new trader would: sign in, link a wallet, add credentials,
 * trade, amend, register a webhook. Only a wallet link's nonce and signature
 * are the challenge's own: no fixed example can carry them.
 */
describe('request bodies: each example is accepted, an unknown field is refused', () => {
  const gateway = new GatewayHarness();
  let bodies: Map<string, BodyOperation>;
  let headers: Record<string, string>;

  beforeAll(async () => {
    // The webhook example's host (example.com's) resolves nowhere: with private addresses allowed,
    // nothing is resolved (webhooks.e2e.spec.ts holds the address rule).
    await gateway.start({
      venues: true,
      budget: true,
      env: { WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: 'true' },
    });
    const served = await gateway.request('GET', '/api/v1/openapi.json');
    bodies = bodyOperations(served.body);
    const wallet = String(bodies.get('createTrade')?.example['long_wallet']);
    const token = await gateway.jwks.sign({ sub: 'idp|request-examples', wallet_address: wallet });
    headers = { authorization: `Bearer ${token}` };
  }, 60_000);
  afterAll(() => gateway.stop());

  const send = (operation: BodyOperation, body: unknown, tradeId = 'unknown-trade') =>
    gateway.request(operation.method, pathOf(operation, tradeId), { headers, body });

  it('the examples are of one trader: one wallet signs in, holds the credentials and trades', () => {
    const trade = bodies.get('createTrade')!.example;
    expect(bodies.get('addCredential')!.example['wallet_addr']).toBe(trade['long_wallet']);
    expect(trade['short_wallet']).toBe(trade['long_wallet']);
    expect(bodies.get('linkWallet')!.example['address']).toBe(
      privateKeyToAccount(LINKED_WALLET_KEY).address.toLowerCase(),
    );
  });

  it('refuses every body with an unknown field: 400 naming it, nothing stored', async () => {
    expect([...bodies.keys()].sort()).toEqual([
      'addCredential',
      'amendTrade',
      'createTrade',
      'createWebhook',
      'issueWalletLinkChallenge',
      'linkWallet',
      'verifySession',
    ]);
    for (const operation of bodies.values()) {
      const refused = await send(operation, { ...operation.example, surplus_field: 1 });
      expect({ operation: operation.operationId, status: refused.status }).toEqual({
        operation: operation.operationId,
        status: 400,
      });
      expect(refused.body).toMatchObject({ code: 'invalid_request' });
      expect(refused.body.error).toContain('surplus_field');
    }
    const stored = await gateway.query(
      `SELECT (SELECT count(*) FROM trades)::int AS trades, (SELECT count(*) FROM users)::int AS users,
         (SELECT count(*) FROM webhook_endpoints)::int AS webhooks`,
    );
    expect(stored).toEqual([{ trades: 0, users: 0, webhooks: 0 }]);
  });

  it('accepts every example as it stands, in the order a new trader sends them', async () => {
    const accepted = async (operationId: string, body?: unknown, tradeId?: string) => {
      const operation = bodies.get(operationId)!;
      const answer = await send(operation, body ?? operation.example, tradeId);
      expect(`${operationId} answered ${answer.status}`).toMatch(/ answered 20[012]$/);
      return answer.body;
    };
    await accepted('verifySession');
    const challenge = await accepted('issueWalletLinkChallenge');
    const signature = await privateKeyToAccount(LINKED_WALLET_KEY).signMessage({
      message: challenge.message,
    });
    const link = bodies.get('linkWallet')!.example;
    await accepted('linkWallet', { ...link, nonce: challenge.nonce, signature });
    await accepted('addCredential');
    const trade = bodies.get('createTrade')!.example;
    // The same example body for the short leg's venue: the trade needs a credential on both.
    await send(
      { ...bodies.get('addCredential')!, path: `/api/v1/credentials/${trade['short_exchange']}` },
      bodies.get('addCredential')!.example,
    );
    const created = await accepted('createTrade');
    await accepted('amendTrade', undefined, created.trade_id);
    await accepted('createWebhook');
  });

  it('accepts every value the document lists for a query parameter of a GET', async () => {
    const served = await gateway.request('GET', '/api/v1/openapi.json');
    const sent: string[] = [];
    for (const { path, name, value } of queryEnumValues(served.body)) {
      const answer = await gateway.request('GET', `${path}?${name}=${encodeURIComponent(value)}`, {
        headers,
      });
      sent.push(`${path}?${name}=${value} answered ${answer.status}`);
      expect(sent.at(-1)).not.toMatch(/ answered 400$/);
    }
    // The groupings of both reports are among them (a rule of one leaked onto the other once).
    expect(sent).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/api\/v1\/results\?group_by=week /),
        expect.stringMatching(/^\/api\/v1\/quality\?group_by=side /),
      ]),
    );
  });
});

/** Each enum value of each query parameter of the GET operations without path parameters. */
function queryEnumValues(document: { paths: Record<string, Record<string, Operation>> }) {
  const values: Array<{ path: string; name: string; value: string }> = [];
  for (const [path, item] of Object.entries(document.paths)) {
    const parameters: Operation[] = item['get']?.['parameters'] ?? [];
    if (path.includes('{') || parameters.length === 0) {
      continue;
    }
    for (const parameter of parameters) {
      const schema = parameter['schema'] ?? {};
      const enumValues: unknown[] = schema['enum'] ?? schema['items']?.['enum'] ?? [];
      if (parameter['in'] === 'query') {
        values.push(
          ...enumValues.map((value) => ({ path, name: parameter['name'], value: String(value) })),
        );
      }
    }
  }
  return values;
}

/** The operations of a document that take a body, by operationId. */
function bodyOperations(document: { paths: Record<string, Record<string, Operation>> }) {
  const bodies = new Map<string, BodyOperation>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const content = operation['requestBody']?.content?.['application/json'];
      if (content) {
        bodies.set(operation['operationId'], {
          operationId: operation['operationId'],
          method: method.toUpperCase(),
          path,
          parameters: operation['parameters'] ?? [],
          example: content.example,
        });
      }
    }
  }
  return bodies;
}

/** The operation's path with each parameter's documented example, the trade id the spec's own. */
function pathOf(operation: BodyOperation, tradeId: string): string {
  return operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    if (name === 'tradeId') {
      return tradeId;
    }
    const example = operation.parameters.find((p) => p.name === name)?.schema?.example;
    if (example === undefined) {
      throw new Error(`${operation.operationId}: no example for path parameter ${name}`);
    }
    return encodeURIComponent(example);
  });
}
