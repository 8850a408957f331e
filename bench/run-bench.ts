import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

/** A numeric `--name value` option of the bench's command line, else `fallback`. */
export const numberArg = (name: string, fallback: number): number => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? Number(process.argv[index + 1]) : fallback;
};

/** The `p`th percentile (0-100) of ascending `sorted` samples; NaN when there are none. */
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

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
 * With `--cpu-prof-window <file>`, profiles this process's CPU over the
 * measured window only (start-up excluded) and writes a .cpuprofile; with
 * `--alloc-prof-window <file>`, samples what it allocates over the window,
 * garbage included (what makes the scavenges), into a .heapprofile; with
 * `--survivor-prof-window <file>`, only what outlived a scavenge (copied or
 * promoted: what a scavenge's pause is made of), dead or alive at the end.
 * All open in DevTools. Returns the function that stops them (a no-op
 * without a flag).
 */
export async function profileWindow(): Promise<() => Promise<void>> {
  const cpuFile = stringArg('cpu-prof-window');
  const survivorFile = stringArg('survivor-prof-window');
  const allocFile = stringArg('alloc-prof-window') ?? survivorFile;
  if (cpuFile === undefined && allocFile === undefined) {
    return async () => undefined;
  }
  const { Session } = await import('node:inspector/promises');
  const { writeFile } = await import('node:fs/promises');
  const session = new Session();
  session.connect();
  if (cpuFile !== undefined) {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
  }
  if (allocFile !== undefined) {
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      // A scavenge's garbage is left out when only its survivors are asked for.
      includeObjectsCollectedByMinorGC: survivorFile === undefined,
    });
  }
  return async () => {
    if (cpuFile !== undefined) {
      const { profile } = await session.post('Profiler.stop');
      await writeFile(cpuFile, JSON.stringify(profile));
      console.log(`cpu profile of the measured window: ${cpuFile}`);
    }
    if (allocFile !== undefined) {
      const { profile } = await session.post('HeapProfiler.stopSampling');
      await writeFile(allocFile, JSON.stringify(profile));
      console.log(`allocation profile of the measured window: ${allocFile}`);
    }
    session.disconnect();
  };
}

/** A `--name value` option of the bench's command line, if given. */
export function stringArg(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : undefined;
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
