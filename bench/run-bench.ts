import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

/** A numeric `--name value` option of the bench's command line, else `fallback`. */
export const numberArg = (name: string, fallback: number): number => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};

/** A bench's entry: exits 0 when it finished, 1 with the error, 130 when interrupted. */
export function runBench(main: () => Promise<void>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => process.exit(130));
  }
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}

/**
 * With `--cpu-prof-window <file>`, profiles this process over the measured
 * window only (start-up excluded) and writes a .cpuprofile for DevTools.
 * Returns the function that stops it (a no-op without the flag).
 */
export async function profileWindow(): Promise<() => Promise<void>> {
  const index = process.argv.indexOf('--cpu-prof-window');
  if (index < 0) {
    return async () => undefined;
  }
  const file = process.argv[index + 1];
  const { Session } = await import('node:inspector/promises');
  const { writeFile } = await import('node:fs/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(file, JSON.stringify(profile));
    session.disconnect();
    console.log(`cpu profile of the measured window: ${file}`);
  };
}

/** This process's GC pauses by kind, since the watch began. */
export interface GcPauseWatch {
  /** `kind n, mean, max` for each kind of pause seen, and stops watching. */
  stop(): string;
}

/**
 * Watches this process's garbage-collection pauses (main thread): every pause
 * longer than a burst puts that burst's re-quotes over the target, so a
 * latency tail is read next to them.
 */
export function gcPauses(): GcPauseWatch {
  const pauses = new Map<string, number[]>();
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { detail } = entry as PerformanceEntry & { detail?: { kind?: number } };
      const kind = GC_KINDS.get(detail?.kind ?? 0) ?? 'other';
      const durations = pauses.get(kind) ?? [];
      durations.push(entry.duration);
      pauses.set(kind, durations);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop: () => {
      observer.disconnect();
      return [...pauses]
        .map(([kind, durations]) => {
          const mean = durations.reduce((sum, d) => sum + d, 0) / durations.length;
          return `${kind} ${durations.length}, mean ${mean.toFixed(2)} ms, max ${Math.max(...durations).toFixed(2)} ms`;
        })
        .join('; ');
    },
  };
}

const GC_KINDS = new Map<number, string>([
  [constants.NODE_PERFORMANCE_GC_MINOR, 'scavenge'],
  [constants.NODE_PERFORMANCE_GC_MAJOR, 'mark-compact'],
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL, 'incremental marking'],
  [constants.NODE_PERFORMANCE_GC_WEAKCB, 'weak callbacks'],
]);
