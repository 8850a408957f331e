#!/usr/bin/env node
import { createInterface } from 'node:readline';
import { runCli } from './cli';

/** A yes/no question on the terminal, on stderr (stdout may be piped); Ctrl-C or end of input is no. */
function confirmOnTerminal(question: string): Promise<boolean> {
  return new Promise((resolve) => {
    const terminal = createInterface({ input: process.stdin, output: process.stderr });
    let answered = false;
    terminal.on('close', () => {
      if (!answered) {
        process.stderr.write('\n');
        resolve(false);
      }
    });
    terminal.question(question, (answer) => {
      answered = true;
      terminal.close();
      resolve(/^y(es)?$/i.test(answer.trim()));
    });
  });
}

const interactive = process.stdin.isTTY === true && process.stderr.isTTY === true;

void runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  tty: process.stdout.isTTY === true,
  ...(interactive ? { confirm: confirmOnTerminal } : {}),
}).then((exitCode) => {
  process.exitCode = exitCode;
});
