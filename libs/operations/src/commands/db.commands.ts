import { runMigrations } from '@sts/persistence';
import type { OpsContext } from '../ops-context';

export async function migrate(context: OpsContext) {
  const applied = await runMigrations(await context.db());
  return { applied };
}
