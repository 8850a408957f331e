import { JetStreamApiError } from '@nats-io/jetstream';
import { errors as natsErrors } from '@nats-io/nats-core';
import {
  QueryFailedError,
  QueryRunnerAlreadyReleasedError,
  QueryRunnerProviderAlreadyReleasedError,
} from 'typeorm';
import { lostDependencyOf } from './dependency-failure';

describe('lostDependencyOf', () => {
  it('blames Postgres for a transaction whose connection was released under it (server restart)', () => {
    expect(lostDependencyOf(new QueryRunnerProviderAlreadyReleasedError())).toBe('postgres');
    expect(lostDependencyOf(new QueryRunnerAlreadyReleasedError())).toBe('postgres');
  });

  it('blames Postgres for a server that terminated the connection (SQLSTATE 57P01)', () => {
    const error = new QueryFailedError(
      'SELECT 1',
      [],
      Object.assign(new Error('terminating'), { code: '57P01' }),
    );
    expect(lostDependencyOf(error)).toBe('postgres');
  });

  it('blames NATS for a link that is gone or a request unanswered in time, not for a subject nobody serves', () => {
    expect(lostDependencyOf(new natsErrors.ClosedConnectionError())).toBe('nats');
    expect(lostDependencyOf(new natsErrors.DrainingConnectionError())).toBe('nats');
    expect(lostDependencyOf(new natsErrors.TimeoutError())).toBe('nats');
    expect(lostDependencyOf(new natsErrors.RequestError('connection disconnected'))).toBe('nats');
    const timedOut = new natsErrors.RequestError('timeout', {
      cause: new natsErrors.TimeoutError(),
    });
    expect(lostDependencyOf(timedOut)).toBe('nats');
    const noResponders = new natsErrors.RequestError('no responders', {
      cause: new natsErrors.NoRespondersError('budget.reserve'),
    });
    expect(lostDependencyOf(noResponders)).toBeUndefined();
    const refused = new JetStreamApiError({ code: 400, err_code: 10058, description: 'in use' });
    expect(lostDependencyOf(refused)).toBeUndefined();
  });

  it('blames nothing for a query that is wrong (a bug stays a 500)', () => {
    const error = new QueryFailedError(
      'SELEC 1',
      [],
      Object.assign(new Error('syntax'), { code: '42601' }),
    );
    expect(lostDependencyOf(error)).toBeUndefined();
    expect(lostDependencyOf(new TypeError('x is undefined'))).toBeUndefined();
  });
});
