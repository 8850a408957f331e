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
  const problems: Array<{ time: string; text: string }> = [];
  for (const file of safeList(logDir).filter((name) => name.endsWith('.log'))) {
    const worker = file.slice(0, -'.log'.length);
    for (const raw of readFileSync(join(logDir, file), 'utf8').split('\n')) {
      const line = parse(raw);
      if (line?.level && PROBLEM_LEVELS.has(line.level)) {
        const err = typeof line.err === 'string' ? line.err : line.err?.message;
        const text = [line.time, worker, line.level, line.trade_id?.slice(0, 8), line.msg, err]
          .filter(Boolean)
          .join(' ');
        problems.push({ time: line.time ?? '', text: text.slice(0, LINE_CHARS) });
      }
    }
  }
  return problems
    .sort((a, b) => a.time.localeCompare(b.time))
    .slice(-max)
    .map((problem) => problem.text);
}

/**
 * Every line the spec's workers logged about one trade, oldest first, each
 * prefixed with the worker that wrote it: what a spec prints when a trade's
 * venues disagree with its log, before its log directory is gone.
 */
export function tradeLines(logDir: string, tradeId: string): string[] {
  const lines: Array<{ time: string; text: string }> = [];
  for (const file of safeList(logDir).filter((name) => name.endsWith('.log'))) {
    const worker = file.slice(0, -'.log'.length);
    for (const raw of readFileSync(join(logDir, file), 'utf8').split('\n')) {
      const line = parse(raw);
      if (line?.trade_id === tradeId) {
        lines.push({ time: line.time ?? '', text: `${worker} ${raw}` });
      }
    }
  }
  return lines.sort((a, b) => a.time.localeCompare(b.time)).map((line) => line.text);
}

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
