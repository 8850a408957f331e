import { randomBytes } from 'node:crypto';
import { runOps } from '@sts/operations';
import { createTestDatabase, type TestDatabase } from '@sts/testing';

/**
 * The operator tool runs beside the fleet with the fleet's shared settings
 * (the Kubernetes overlays give every service NATS_REPLICAS=3): it reads
 * them as the services do, and refuses a bad one by name.
 */
describe('ops with the shared settings of a clustered deployment', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  const createUser = (natsReplicas: string) =>
    runOps(['users', 'create', '--wallet', `0x${randomBytes(20).toString('hex')}`], {
      DATABASE_URL: database.url,
      OPERATOR_ID: 'desk-lead',
      NATS_REPLICAS: natsReplicas,
    });

  it('takes NATS_REPLICAS=3 from the environment', async () => {
    const result = await createUser('3');
    expect(result.exitCode).toBe(0);
    expect(result.output).toEqual(expect.objectContaining({ user_id: expect.any(String) }));
  });

  it('refuses NATS_REPLICAS that is not a count, naming it', async () => {
    const result = await createUser('three');
    expect(result.exitCode).not.toBe(0);
    expect(JSON.stringify(result.output)).toContain('NATS_REPLICAS');
  });
});
