/**
 * How many live trades one worker holds with event-loop delay p99 under
 * 20 ms. Trades are added in steps; at each step the market runs for a while
 * (book moves one market at a time, outside takers filling the aster makers)
 * and the worker's event-loop delay is measured.
 *
 *   node tools/build.mjs && node dist/bench/worker-capacity.bench.js [--step 250] [--max 2000] [--seconds 10] [--moves-per-s 10]
 *
 * Prints figures; asserts nothing. Target: at least 1,000 trades per worker.
 */
import {
  driveMarket,
  ms,
  startBenchWorld,
  TRADES_PER_WALLET,
  withWorkerNodeFlags,
} from './worker-fixture';
import { numberArg as arg, runBench } from './run-bench';
import { sleep } from '@sts/platform';

const STEP = arg('step', 250);
const MAX = arg('max', 2000);
const SECONDS = arg('seconds', 10);
const MOVES_PER_S = arg('moves-per-s', 10);
const TAKERS_PER_S = arg('takers-per-s', 20);
const LIMIT_MS = 20;

async function main(): Promise<void> {
  const world = await startBenchWorld({ tickMs: 0 });
  let held = 0;
  try {
    console.log(
      `worker capacity: ${MOVES_PER_S} book moves/s and ${TAKERS_PER_S} takers/s, ${SECONDS} s per step`,
    );
    for (let target = STEP; target <= MAX; target += STEP) {
      const wallets = Math.ceil((target - world.tradeCount) / TRADES_PER_WALLET);
      await world.addWallets(wallets);
      const active = await world.waitActive(180_000);
      const stop = driveMarket(world.simUrl, {
        takersPerS: TAKERS_PER_S,
        jumpsPerS: MOVES_PER_S,
      });
      await sleep(2_000);
      world.loopDelay.reset();
      world.worker.metrics.fillToHedge.reset();
      world.worker.metrics.moveToRequote.reset();
      await sleep(SECONDS * 1_000);
      const p99 = world.loopDelay.percentile(99) / 1e6;
      const hedge = world.worker.metrics.fillToHedge.summary();
      const requote = world.worker.metrics.moveToRequote.summary();
      await stop();
      const memory = process.memoryUsage().rss / 1024 / 1024;
      console.log(
        `  ${String(active).padStart(5)} trades: event-loop delay p99 ${p99.toFixed(2)} ms ` +
          `(max ${ms(world.loopDelay.max)}), fill->hedge p99 ${hedge.p99.toFixed(3)} ms ` +
          `(${hedge.count}), re-quote p99 ${requote.p99.toFixed(2)} ms (${requote.count}), rss ${memory.toFixed(0)} MB`,
      );
      if (p99 >= LIMIT_MS) {
        break;
      }
      held = active;
    }
    console.log(`most live trades held with event-loop delay p99 < ${LIMIT_MS} ms: ${held}`);
  } finally {
    await world.stop();
  }
}

if (withWorkerNodeFlags()) {
  runBench(main);
}
