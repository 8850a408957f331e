import 'reflect-metadata';
import { runOps } from '@sts/operations';
import { loadDotEnv } from '@sts/platform';

loadDotEnv();
void runOps(process.argv.slice(2)).then(({ exitCode, output }) => {
  const usage =
    !Array.isArray(output) && typeof output['usage'] === 'string' ? output['usage'] : null;
  process.stdout.write(usage ?? `${JSON.stringify(output, null, 2)}\n`);
  process.exitCode = exitCode;
});
