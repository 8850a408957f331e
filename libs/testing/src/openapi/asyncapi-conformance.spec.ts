import { join } from 'node:path';
import { AsyncApiConformance } from './asyncapi-conformance';

const conformance = new AsyncApiConformance(
  join(__dirname, '../../../../apps/gateway/asyncapi.json'),
);
const completed = {
  type: 'event',
  event: 'trade.completed',
  event_id: 'e-1',
  trade_id: '8f14e45f-ceea-467a-9575-6c3f1b2a9e01',
  status: 'completed',
  timestamp: '2026-01-05T09:30:00.000Z',
  data: {},
};

describe('AsyncApiConformance (the notifier document)', () => {
  it('accepts frames as described', () => {
    expect(conformance.problemsOf(completed)).toEqual([]);
    expect(
      conformance.problemsOf({ type: 'pong', id: 3, timestamp: '2026-01-05T09:30:00.000Z' }),
    ).toEqual([]);
  });

  it('fails an undescribed frame, an unknown event, a missing field or a bad value', () => {
    expect(conformance.problemsOf({ type: 'hello' })).toEqual([
      'frame of type hello is not described',
    ]);
    expect(conformance.problemsOf({ ...completed, event: 'trade.exploded' })).not.toEqual([]);
    const { status: _status, ...withoutStatus } = completed;
    expect(() => conformance.assert(withoutStatus)).toThrow(/status/);
    expect(conformance.problemsOf({ ...completed, timestamp: 'now' })).not.toEqual([]);
  });
});
