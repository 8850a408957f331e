import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const PROBLEM_LEVELS = new Set(['warn', 'error', 'fatal']);
const LINE_CHARS = 400;

interface LogLine {
  level?: string;
  time?: string;
  msg?: string;
  trade_id?: string;
  err?: { message?: string } | string;
}

/**
 * The last warnings and errors the spec's workers wrote to their log files
 * (newest last), one line each: what a timed-out wait names, so a failure on
 * a CI machine says what the workers saw and not only what the spec missed.
 */
export function recentProblems(logDir: string, max = 12): string[] {
  const problems = workerLines(logDir).flatMap(({ worker, line }) => {
    if (!line.level || !PROBLEM_LEVELS.has(line.level)) {
      return [];
    }
    const err = typeof line.err === 'string' ? line.err : line.err?.message;
    const text = [line.time, worker, line.level, line.trade_id?.slice(0, 8), line.msg, err]
      .filter(Boolean)
      .join(' ');
    return [{ time: line.time ?? '', text: text.slice(0, LINE_CHARS) }];
  });
  return oldestFirst(problems).slice(-max);
}

/**
 * Every line the spec's workers logged about one trade, oldest first, each
 * prefixed with the worker that wrote it: what a spec prints when a trade's
 * venues disagree with its log, before its log directory is gone.
 */
export function tradeLines(logDir: string, tradeId: string): string[] {
  return oldestFirst(
    workerLines(logDir)
      .filter(({ line }) => line.trade_id === tradeId)
      .map(({ worker, line, raw }) => ({ time: line.time ?? '', text: `${worker} ${raw}` })),
  );
}

/** Every JSON line of every worker's log file in `logDir`, with the worker that wrote it. */
function workerLines(logDir: string): Array<{ worker: string; line: LogLine; raw: string }> {
  return safeList(logDir)
    .filter((name) => name.endsWith('.log'))
    .flatMap((file) => {
      const worker = file.slice(0, -'.log'.length);
      return readFileSync(join(logDir, file), 'utf8')
        .split('\n')
        .flatMap((raw) => {
          const line = parse(raw);
          return line ? [{ worker, line, raw }] : [];
        });
    });
}

const oldestFirst = (lines: Array<{ time: string; text: string }>): string[] =>
  lines.sort((a, b) => a.time.localeCompare(b.time)).map((line) => line.text);

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function parse(raw: string): LogLine | undefined {
  if (!raw.startsWith('{')) {
    return undefined;
  }
  try {
    return JSON.parse(raw) as LogLine;
  } catch {
    return undefined;
  }
}
