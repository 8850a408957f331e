import { privateKeyToAccount } from 'viem/accounts';
import { CcxtVenueClient, createCcxtExchange, type CcxtExchangeLike } from '@sts/venues';
import { registerApiWallet } from './aster-api-wallets';
import {
  ETH,
  loggedRequests,
  startAsterWorld,
  thrown,
  walletOf,
  type AsterWorld,
} from './aster-test-kit';

// Aster's API wallets ("agents"): a main wallet approves one with
// POST /fapi/v3/registerAndApproveAgent (its own signature); the API wallet
// then signs the main wallet's requests as `signer`, `user` = main wallet
// (futures v3 docs, "Authentication signature payload"). The live client
// gets it as an operator stores it: wallet, API wallet address, its key.
describe('aster dialect: API wallets sign for their main wallet', () => {
  let world: AsterWorld;
  const opened: CcxtExchangeLike[] = [];
  const clients: CcxtVenueClient[] = [];

  beforeAll(async () => {
    world = await startAsterWorld();
  });

  afterEach(async () => {
    await world.control.setDialectProfile('aster', { main_wallet_signs: 'accepted' });
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await Promise.all(opened.map((exchange) => exchange.close()));
    await world.sim.stop();
  });

  /** A funded main wallet and an API wallet of its own (not approved yet). */
  const accounts = async (label: string) => {
    const main = walletOf(label);
    const agent = walletOf(`${label}:api-wallet`);
    await world.control.deposit('aster', main.address, '100000');
    return { main, agent };
  };

  const exchangeOf = async (credentials: Record<string, string>) => {
    const exchange = await createCcxtExchange('aster', credentials, { endpoint: world.endpoint });
    opened.push(exchange);
    return exchange;
  };

  const asApiWallet = (main: { address: string }, agent: { privateKey: string }) =>
    exchangeOf({
      walletAddress: main.address,
      apiKey: privateKeyToAccount(agent.privateKey as `0x${string}`).address,
      secret: agent.privateKey,
      privateKey: agent.privateKey,
    });

  it('trades for the main wallet once approved: user = main wallet, signer = API wallet', async () => {
    const { main, agent } = await accounts('agent-trades');
    const exchange = await asApiWallet(main, agent);
    const refused = await thrown(exchange.fetchBalance());
    expect(refused.message).toContain('"code":-2015');
    const approval = await registerApiWallet(world.endpoint, main.privateKey, agent.privateKey);
    expect(approval).toEqual({ status: 200, body: { code: 200, msg: 'success' } });
    const client = new CcxtVenueClient({ venue: 'aster', exchange });
    clients.push(client);
    await client.connect();
    const book = await (
      exchange as unknown as {
        fetchOrderBook(s: string): Promise<{ bids: number[][] }>;
      }
    ).fetchOrderBook(ETH);
    const placed = await client.placePostOnly({
      symbol: 'ETHUSDT',
      side: 'buy',
      price: String(book.bids[0][0] - 20),
      size: '0.1',
      clientOrderId: 'agent-order-1',
    });
    expect(placed.order.status).toBe('open');
    const recorded = (await world.control.accountOrders('aster', main.address)).orders;
    expect(recorded.map((order) => order.client_order_id)).toEqual(['agent-order-1']);
    const order = (await loggedRequests(world, main.address)).find(
      (request) => request.path === '/fapi/v3/order' && request.method === 'POST',
    );
    expect(order?.params).toMatchObject({
      user: main.address,
      signer: privateKeyToAccount(agent.privateKey).address,
    });
  });

  it('main_wallet_signs=refused: the main wallet cannot sign for itself, its API wallet can', async () => {
    const { main, agent } = await accounts('agent-only');
    await registerApiWallet(world.endpoint, main.privateKey, agent.privateKey);
    await world.control.setDialectProfile('aster', { main_wallet_signs: 'refused' });
    const itself = await exchangeOf({ walletAddress: main.address, privateKey: main.privateKey });
    expect((await thrown(itself.fetchBalance())).message).toContain('"code":-2015');
    await expect((await asApiWallet(main, agent)).fetchBalance()).resolves.toBeDefined();
  });

  it('refuses an API wallet approved without futures trading, expired, or approved by another wallet', async () => {
    const { main, agent } = await accounts('agent-refusals');
    const noPerp = walletOf('agent-refusals:no-perp');
    const lapsed = walletOf('agent-refusals:lapsed');
    await registerApiWallet(world.endpoint, main.privateKey, noPerp.privateKey, {
      canPerpTrade: false,
    });
    await registerApiWallet(world.endpoint, main.privateKey, lapsed.privateKey, {
      expiresAtMs: Date.now() - 1,
    });
    for (const wallet of [noPerp, lapsed]) {
      const exchange = await asApiWallet(main, wallet);
      expect((await thrown(exchange.fetchBalance())).message).toContain('"code":-2015');
    }
    // An approval is the main wallet's own signature: signed by the API wallet it is refused.
    const forged = await registerApiWallet(world.endpoint, main.privateKey, agent.privateKey, {
      signWith: agent.privateKey,
    });
    expect(forged).toMatchObject({ status: 400, body: { code: -1022 } });
    const stranger = await asApiWallet(main, agent);
    expect((await thrown(stranger.fetchBalance())).message).toContain('"code":-2015');
  });

  it("an unapproved key is the venue's refusal, whatever API wallet address was stored", async () => {
    const { main, agent } = await accounts('agent-mismatch');
    const exchange = await exchangeOf({
      walletAddress: main.address,
      apiKey: '0x00000000000000000000000000000000000000aa',
      privateKey: agent.privateKey,
    });
    expect((await thrown(exchange.fetchBalance())).message).toContain('"code":-2015');
  });
});
