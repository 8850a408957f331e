import { startVenueSim, type RunningVenueSim } from '../../sim-server';
import { SimControl } from '../../testing/sim-control';
import { LighterKit } from './lighter-test-kit';

// Lighter's nonces (apidocs.lighter.xyz/docs/trading, "Handle Nonces"):
// counted per API key; a transaction refused at the API does not use its
// nonce, one accepted does (even when the sequencer then cancels the order);
// without SkipNonce the next nonce only; with it, the reading
// `skip_nonce_order` decides.

let sim: RunningVenueSim;
let control: SimControl;
const kit = new LighterKit(
  () => sim.url,
  () => control,
);

beforeAll(async () => {
  sim = await startVenueSim({ seed: 11, tickMs: 0 });
  control = new SimControl(sim.url);
});

afterAll(async () => {
  await sim.stop();
});

afterEach(async () => {
  await control.setDialectProfile('lighter', { skip_nonce_order: 'increasing' });
});

describe('Lighter dialect: nonces', () => {
  it('gives back the nonce of a transaction the API refuses: the same nonce then goes through', async () => {
    const owner = await kit.owner('refused-gives-back', '20');
    const nonce = await kit.nextNonce(owner);
    // Ten ETH at 1000 USDC with 20 USDC of collateral: refused for margin.
    const big = kit.order(owner, { nonce, client: 1, baseAmount: 100_000, skipNonce: 0 });
    expect((await kit.sendTx(big)).body).toMatchObject({ code: 21739 });
    expect(await kit.nextNonce(owner)).toBe(nonce);
    const small = kit.order(owner, { nonce, client: 2, baseAmount: 100, skipNonce: 0 });
    expect((await kit.sendTx(small)).body).toMatchObject({ code: 200 });
    expect(await kit.nextNonce(owner)).toBe(nonce + 1);
    expect((await kit.txsOf(owner)).map((tx) => tx.nonce)).toEqual([nonce]);
  });

  it('without SkipNonce takes the next nonce only: a gap or a repeat is refused (21104)', async () => {
    const owner = await kit.owner('consecutive');
    const next = await kit.nextNonce(owner);
    const gap = await kit.sendTx(kit.order(owner, { nonce: next + 1, client: 3, skipNonce: 0 }));
    expect(gap).toMatchObject({ status: 400, body: { code: 21104 } });
    const first = await kit.sendTx(kit.order(owner, { nonce: next, client: 3, skipNonce: 0 }));
    expect(first.body['code']).toBe(200);
    const again = await kit.sendTx(kit.order(owner, { nonce: next, client: 4, skipNonce: 0 }));
    expect(again.body['code']).toBe(21104);
  });

  it('uses the nonce of an order the sequencer cancels (a post-only that would cross)', async () => {
    const owner = await kit.owner('sequencer-cancel');
    const nonce = Date.now();
    const crossing = kit.order(owner, { nonce, client: 5, price: await kit.best('asks') });
    expect((await kit.sendTx(crossing)).body['code']).toBe(200);
    const inactive = await kit.orders(owner, 'accountInactiveOrders');
    expect(inactive.map((order) => order['status'])).toEqual(['canceled-post-only']);
    const reuse = await kit.sendTx(kit.order(owner, { nonce, client: 6 }));
    expect(reuse.body['code']).toBe(21104);
  });

  it('with SkipNonce (increasing): any nonce above the last, and one below it arriving late is refused', async () => {
    const owner = await kit.owner('skip-increasing');
    const base = Date.now();
    expect((await kit.sendTx(kit.order(owner, { nonce: base + 10, client: 7 }))).body['code']).toBe(
      200,
    );
    const late = await kit.sendTx(kit.order(owner, { nonce: base + 5, client: 8 }));
    expect(late).toMatchObject({ status: 400, body: { code: 21104 } });
    expect((await kit.txsOf(owner)).map((tx) => tx.nonce)).toEqual([base + 10]);
  });

  it('with SkipNonce (unused): a lower nonce not used yet goes through, a used one does not', async () => {
    await control.setDialectProfile('lighter', { skip_nonce_order: 'unused' });
    const owner = await kit.owner('skip-unused');
    const base = Date.now();
    expect((await kit.sendTx(kit.order(owner, { nonce: base + 10, client: 9 }))).body['code']).toBe(
      200,
    );
    expect((await kit.sendTx(kit.order(owner, { nonce: base + 5, client: 10 }))).body['code']).toBe(
      200,
    );
    const used = await kit.sendTx(kit.order(owner, { nonce: base + 5, client: 11 }));
    expect(used.body['code']).toBe(21104);
  });
});
