import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { TradeFigures, Violation } from './checks';

export interface FaultResult {
  fault: string;
  what: string;
  notes: string[];
  trades: number;
  proberTrades: number;
  makerFills: number;
  makerSize: string;
  hedgeFills: number;
  hedgeSize: string;
  takerTrades: number;
  finalStatuses: Record<string, number>;
  /** Answers from the moment the fault began until the fleet had recovered: "status[ code]" -> count. */
  codesDuringFault: Record<string, number>;
  /** Every answer of the run, per request kind and status. */
  codesByKind: Record<string, Record<string, number>>;
  hangs: number;
  /** The slowest answer from the fault on (ms). */
  slowestMs: number;
  apiCalls: number;
  recoverMs: number | null;
  recovery: {
    readyMs?: number;
    tradesSettledMs?: number;
    fillingMs?: number;
    createAcceptedMs?: number;
  };
  /** The most any of the fault's trades held unhedged at once, by the venues' fill times, and the longest. */
  unhedgedPeak: string;
  unhedgedLongestMs: number;
  /** Figures a fault measured itself (a partition's time to resume, say), ms, one per strike. */
  measured: Record<string, number[]>;
  durationMs: number;
  violations: Violation[];
  tradeFigures: TradeFigures[];
}

export interface MatrixReport {
  run: string;
  startedAt: string;
  seed: number;
  logDir: string;
  setupMs: number;
  results: FaultResult[];
}

const pad = (text: string, width: number): string =>
  text.length >= width ? text : text + ' '.repeat(width - text.length);

/** The per-fault table the suite prints (the JSON report holds the same figures and more). */
export function table(results: FaultResult[]): string {
  const header = [
    'fault',
    'trades',
    'maker fills',
    'hedges',
    'recover',
    'unhedged max',
    'slowest',
    'viol.',
    'status codes during the fault',
  ];
  const rows = results.map((r) => [
    r.fault,
    `${r.trades}+${r.proberTrades}`,
    `${r.makerFills} (${r.makerSize})`,
    `${r.hedgeFills} (${r.hedgeSize})`,
    r.recoverMs === null ? 'never' : `${(r.recoverMs / 1000).toFixed(1)} s`,
    `${r.unhedgedPeak} / ${r.unhedgedLongestMs} ms`,
    `${(r.slowestMs / 1000).toFixed(1)} s`,
    String(r.violations.length),
    Object.entries(r.codesDuringFault)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([code, count]) => `${code}:${count}`)
      .join(' '),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => pad(cell, i === cells.length - 1 ? 0 : widths[i])).join(' | ');
  return [
    line(header),
    widths.map((w) => '-'.repeat(Math.max(w, 3))).join('-|-'),
    ...rows.map(line),
  ].join('\n');
}

/** One line per violation: what failed, for which trade, and the detail. */
export function violationLines(result: FaultResult): string[] {
  return result.violations.map(
    (v) =>
      `${result.fault}: ${v.invariant}${v.tradeId ? ` trade ${v.tradeId}` : ''}${v.wallet && !v.tradeId ? ` wallet ${v.wallet}` : ''}: ${v.detail}`,
  );
}

export function writeReport(file: string, report: MatrixReport): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(report, null, 2));
}
