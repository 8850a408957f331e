import { loadWorkerConfig } from './load-worker-config';

describe("the worker's egress plan at boot", () => {
  const CREDENTIALS_KEK = Buffer.alloc(32, 7).toString('base64');

  it('boots with an egress bound to an address of this host', () => {
    const { egressPlan } = loadWorkerConfig({
      CREDENTIALS_KEK,
      EGRESS_PLAN: JSON.stringify({ egresses: [{ id: 'a', bind: '127.0.0.1' }] }),
    });
    expect(egressPlan.egresses).toEqual([{ id: 'a', bind: '127.0.0.1' }]);
  });

  it('refuses to boot when an egress binds an address this host does not hold', () => {
    // 198.51.100.0/24 is documentation space: no interface of a test host holds it.
    expect(() =>
      loadWorkerConfig({
        CREDENTIALS_KEK,
        EGRESS_PLAN: JSON.stringify({ egresses: [{ id: 'b', bind: '198.51.100.9' }] }),
      }),
    ).toThrow('EGRESS_PLAN: egress "b" binds 198.51.100.9, which is not an address of this host');
  });
});
