import { join } from 'node:path';
import type { Test } from '@jest/test-result';
import DurationSequencer from './duration-sequencer';

const ROOT = join(__dirname, '..', '..');

/**
 * Spec files as jest hands them to a sequencer on a clean clone: no cache;
 * the short unit spec is the biggest file, as jest's size fallback would
 * order it first.
 */
function coldTests(paths: string[]): Test[] {
  const context = {
    config: { rootDir: ROOT, cache: false },
    hasteFS: { getSize: (path: string) => (path.endsWith('compare.spec.ts') ? 50_000 : 100) },
  };
  return paths.map((path) => ({ path: join(ROOT, path), context, duration: undefined }) as never);
}

const names = (tests: Test[]): string[] => tests.map((test) => test.path.slice(ROOT.length + 1));

describe('DurationSequencer', () => {
  it('runs the recorded long files first on a cold cache, whatever their size', () => {
    const sorted = new DurationSequencer().sort(
      coldTests([
        'apps/worker/test/live-rate-budget.e2e.spec.ts',
        'libs/domain/src/decimal/compare.spec.ts',
        'apps/venue-sim/src/dialects/aster/aster-live-conformance.int.spec.ts',
      ]),
    ) as Test[];
    expect(names(sorted)).toEqual([
      'apps/venue-sim/src/dialects/aster/aster-live-conformance.int.spec.ts',
      'apps/worker/test/live-rate-budget.e2e.spec.ts',
      'libs/domain/src/decimal/compare.spec.ts',
    ]);
  });

  it('runs a file it has no duration for first, as jest does with a new spec', () => {
    const sorted = new DurationSequencer().sort(
      coldTests([
        'apps/venue-sim/src/dialects/aster/aster-live-conformance.int.spec.ts',
        'tools/jest/not-recorded-yet.spec.ts',
      ]),
    ) as Test[];
    expect(names(sorted)[0]).toBe('tools/jest/not-recorded-yet.spec.ts');
  });
});
