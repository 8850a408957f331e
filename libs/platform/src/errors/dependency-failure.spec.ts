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
