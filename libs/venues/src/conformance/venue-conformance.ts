import { batchCases } from './cases/batch.cases';
import { fillsCases } from './cases/fills.cases';
import { limitsCases } from './cases/limits.cases';
import { lostAnswerCases } from './cases/lost-answers.cases';
import { marketDataCases } from './cases/market-data.cases';
import { orderEntryCases } from './cases/order-entry.cases';
import type { ConformanceSetup } from './conformance-harness';
import { SuiteContext } from './suite-context';

/**
 * The one contract every VenueClient passes (paper in CI; a live client can
 * be run through it by hand with a harness of its own). It drives the client
 * only through its public interface and the venue only through the harness.
 */
export function runVenueConformance(name: string, setup: ConformanceSetup): void {
  describe(`VenueClient conformance: ${name}`, () => {
    const ctx = new SuiteContext(setup);
    beforeAll(() => ctx.open());
    afterEach(() => ctx.cancelOpenOrders());
    afterAll(() => ctx.close());

    marketDataCases(ctx);
    orderEntryCases(ctx);
    fillsCases(ctx);
    limitsCases(ctx);
    lostAnswerCases(ctx);
    batchCases(ctx);
  });
}
