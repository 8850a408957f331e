import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recentProblems, tradeLines } from './worker-logs';

const line = (fields: Record<string, unknown>): string => JSON.stringify(fields);

describe('recentProblems', () => {
  it("names the workers' warnings and errors, oldest first, the newest `max` of them", () => {
    const dir = mkdtempSync(join(tmpdir(), 'sts-worker-logs-'));
    writeFileSync(
      join(dir, 'w1-aaaa.log'),
      [
        line({ level: 'info', time: '2026-11-26T10:00:00.000Z', msg: 'worker started' }),
        line({
          level: 'warn',
          time: '2026-11-26T10:00:02.000Z',
          trade_id: '6189917b-7ca3-4a47-aa95-0a672eecda05',
          msg: 'account stream disconnected',
        }),
        'not json',
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'p1-bbbb.log'),
      [
        line({
          level: 'error',
          time: '2026-11-26T10:00:01.000Z',
          msg: 'hedge failed',
          err: { message: 'socket hang up' },
        }),
        line({ level: 'debug', time: '2026-11-26T10:00:03.000Z', msg: 'trade.start' }),
      ].join('\n'),
    );
    writeFileSync(join(dir, 'notes.txt'), line({ level: 'error', msg: 'not a log' }));

    expect(recentProblems(dir)).toEqual([
      '2026-11-26T10:00:01.000Z p1-bbbb error hedge failed socket hang up',
      '2026-11-26T10:00:02.000Z w1-aaaa warn 6189917b account stream disconnected',
    ]);
    expect(recentProblems(dir, 1)).toEqual([
      '2026-11-26T10:00:02.000Z w1-aaaa warn 6189917b account stream disconnected',
    ]);
    expect(recentProblems(join(dir, 'gone'))).toEqual([]);
  });
});

describe('tradeLines', () => {
  it("gives every worker's lines of one trade, oldest first, named by worker", () => {
    const dir = mkdtempSync(join(tmpdir(), 'sts-worker-logs-'));
    const first = line({ time: '2026-11-26T10:00:01.000Z', trade_id: 'a', msg: 'trade recovered' });
    const second = line({ time: '2026-11-26T10:00:02.000Z', trade_id: 'a', msg: 'trade ended' });
    writeFileSync(
      join(dir, 'p2-bbbb.log'),
      [second, line({ trade_id: 'b', msg: 'other' })].join('\n'),
    );
    writeFileSync(join(dir, 'p1-aaaa.log'), ['not json', first].join('\n'));

    expect(tradeLines(dir, 'a')).toEqual([`p1-aaaa ${first}`, `p2-bbbb ${second}`]);
    expect(tradeLines(dir, 'c')).toEqual([]);
  });
});
