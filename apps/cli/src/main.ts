#!/usr/bin/env node
import { runCli } from './cli';

void runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  tty: process.stdout.isTTY === true,
}).then((exitCode) => {
  process.exitCode = exitCode;
});
