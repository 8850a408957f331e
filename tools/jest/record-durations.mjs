// Writes tools/jest/spec-durations.json from the output of one or more
// `jest --json --outputFile F` runs: each spec file's wall time in whole
// seconds (at least 1), by its path from the repository root. The
// duration sequencer reads it where jest has no cache of its own.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const outputs = process.argv.slice(2);
if (outputs.length === 0) {
  console.error('usage: node tools/jest/record-durations.mjs <jest --json output>...');
  process.exit(2);
}
const durations = {};
for (const file of outputs) {
  for (const result of JSON.parse(readFileSync(file, 'utf8')).testResults) {
    const seconds = Math.max(1, Math.round((result.endTime - result.startTime) / 1000));
    durations[relative(root, result.name)] = seconds;
  }
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(join(here, 'spec-durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`${Object.keys(sorted).length} spec files recorded`);
