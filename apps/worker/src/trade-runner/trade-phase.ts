/** Why a trade ends here: its terminal status, and a failure's reason. */
export type Ending =
  { kind: 'completed' } | { kind: 'canceled' } | { kind: 'failed'; reason: string };

/**
 * Where a trade is on this worker, with the ending asked for, if any. A
 * cancel or a failure may arrive in any phase (while it validates, while a
 * step runs); the loop acts on it from `running`.
 * - `starting`: validation, recovery or a resume after a hand-over;
 * - `running`: its ExecutionLoop steps; a step that finds an ending begins it;
 * - `handing_over`: going quiet for another worker (graceful shutdown);
 * - `ending`: going quiet and writing the terminal status of `ending`;
 * - `closed`: nothing more is done here (ended, handed over, lease lost).
 */
export type TradePhase =
  | { kind: 'starting'; ending: Ending | null }
  | { kind: 'running'; ending: Ending | null }
  | { kind: 'handing_over'; ending: Ending | null }
  | { kind: 'ending'; ending: Ending }
  | { kind: 'closed'; ending: Ending | null };

/** A stronger ending replaces a weaker one asked before: a failure wins, then a cancel. */
const STRENGTH: Record<Ending['kind'], number> = { completed: 0, canceled: 1, failed: 2 };

/**
 * The phase once `asked` is asked for. The first failure's reason is kept.
 * Once the trade is ending (or closed) only a failure changes its ending: a
 * hedge that fails while it goes quiet makes it `failed`, a late cancel
 * changes nothing.
 */
export function askEnding(phase: TradePhase, asked: Ending): TradePhase {
  const current = phase.ending;
  if (current && STRENGTH[current.kind] >= STRENGTH[asked.kind]) {
    return phase;
  }
  if ((phase.kind === 'ending' || phase.kind === 'closed') && asked.kind !== 'failed') {
    return phase;
  }
  return { ...phase, ending: asked };
}

/** starting -> running (a trade closed meanwhile stays closed). */
export function startRunning(phase: TradePhase): TradePhase {
  return phase.kind === 'starting' ? { kind: 'running', ending: phase.ending } : phase;
}

/** running -> ending: only a running trade with an ending asked for begins it. */
export function beginEnding(phase: TradePhase): TradePhase & { kind: 'ending' } {
  if (phase.kind !== 'running' || phase.ending === null) {
    throw new Error(`a trade cannot begin ending from ${phase.kind} without an ending asked for`);
  }
  return { kind: 'ending', ending: phase.ending };
}

/** running -> handing_over (asked twice: still handing over). */
export function handOver(phase: TradePhase): TradePhase {
  if (phase.kind === 'handing_over') {
    return phase;
  }
  if (phase.kind !== 'running') {
    throw new Error(`a trade cannot hand over from ${phase.kind}`);
  }
  return { kind: 'handing_over', ending: phase.ending };
}

/** Any phase -> closed: what it was ending with stays on the record. */
export function close(phase: TradePhase): TradePhase {
  return { kind: 'closed', ending: phase.ending };
}
