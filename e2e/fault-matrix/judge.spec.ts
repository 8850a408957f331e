import type { ApiAnswer } from './api';
import { judge } from './traffic';

const answer = (
  status: ApiAnswer['status'],
  body: unknown,
  retryAfter: string | null = null,
): ApiAnswer => ({
  status,
  body,
  retryAfter,
  ms: 10,
});

/** The fault matrix's verdict on one API answer: what a request deserves during a fault. */
describe('fault matrix: judging an API answer', () => {
  it('accepts the answers each request deserves', () => {
    expect(judge('create', answer(202, { trade_id: 't' }))).toBeUndefined();
    expect(
      judge('create', answer(409, { error: 'cap', code: 'maker_cap_exceeded' })),
    ).toBeUndefined();
    expect(
      judge('patch', answer(409, { error: 'x', code: 'trade_not_amendable' })),
    ).toBeUndefined();
    expect(judge('get', answer(200, {}))).toBeUndefined();
    expect(
      judge('list', answer(503, { error: 'down', code: 'service_unavailable' }, '1')),
    ).toBeUndefined();
    expect(
      judge('create', answer(503, { error: 'm', code: 'system_maintenance' })),
    ).toBeUndefined();
  });

  it('refuses a 500, a bare 503, a 503 for a lost dependency without Retry-After, a hang and an undeserved status', () => {
    expect(judge('get', answer(500, { error: 'internal error', code: 'internal_error' }))).toMatch(
      /^500/,
    );
    expect(judge('get', answer(503, { status: 'degraded' }))).toMatch(/without \{error, code\}/);
    expect(judge('create', answer(503, { error: 'b', code: 'budget_unavailable' }))).toMatch(
      /without Retry-After/,
    );
    expect(judge('events', answer('hang', 'timeout'))).toMatch(/no answer/);
    expect(judge('events', answer('error', 'ECONNREFUSED'))).toMatch(/connection failed/);
    expect(judge('get', answer(404, { error: 'trade not found' }))).toMatch(/^404/);
    expect(judge('patch', answer(409, { error: 'x', code: 'maker_cap_exceeded' }))).toMatch(/^409/);
  });
});
