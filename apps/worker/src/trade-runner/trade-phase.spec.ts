import {
  askEnding,
  beginEnding,
  close,
  handOver,
  startRunning,
  type TradePhase,
} from './trade-phase';

const running: TradePhase = { kind: 'running', ending: null };
const failed = (reason: string) => ({ kind: 'failed', reason }) as const;

describe('a trade phase', () => {
  it('keeps the strongest ending asked for: a failure, then a cancel, then the target', () => {
    let phase = askEnding(running, { kind: 'completed' });
    phase = askEnding(phase, { kind: 'canceled' });
    expect(phase.ending).toEqual({ kind: 'canceled' });
    phase = askEnding(phase, { kind: 'completed' });
    expect(phase.ending).toEqual({ kind: 'canceled' });
    phase = askEnding(phase, failed('hedge failed'));
    phase = askEnding(phase, failed('a later failure'));
    phase = askEnding(phase, { kind: 'canceled' });
    expect(phase).toEqual({ kind: 'running', ending: failed('hedge failed') });
  });

  it('once ending, only a failure changes what the trade ends with', () => {
    const ending = beginEnding(askEnding(running, { kind: 'completed' }));
    expect(askEnding(ending, { kind: 'canceled' })).toBe(ending);
    expect(askEnding(ending, failed('hedge timed out'))).toEqual({
      kind: 'ending',
      ending: failed('hedge timed out'),
    });
  });

  it('carries a cancel asked while starting into running', () => {
    const starting: TradePhase = { kind: 'starting', ending: null };
    expect(startRunning(askEnding(starting, { kind: 'canceled' }))).toEqual({
      kind: 'running',
      ending: { kind: 'canceled' },
    });
    expect(startRunning(close(starting))).toEqual({ kind: 'closed', ending: null });
  });

  it('refuses to begin an ending nobody asked for, or to hand over a trade that is not running', () => {
    expect(() => beginEnding(running)).toThrow();
    expect(() => handOver({ kind: 'starting', ending: null })).toThrow();
    const handingOver = handOver(running);
    expect(handOver(handingOver)).toBe(handingOver);
    expect(() => beginEnding(askEnding(handingOver, { kind: 'canceled' }))).toThrow();
  });
});
