#!/usr/bin/env node
// Checks commit messages against the house convention: a subject of at most
// 72 characters (git log --oneline, GitHub and mail clients cut it there),
// then a blank line and a body that says why the change was made.
//   node tools/check-commit-messages.mjs [<base>]   commits <base>..HEAD
//   node tools/check-commit-messages.mjs --message-file <file>   one message
// The second form is what .githooks/commit-msg runs. Without <base> the
// range starts at CONVENTION_START: the history before it is left as it is.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const SUBJECT_LIMIT = 72;
/** The first commit of the run of commits that all follow the convention. */
const CONVENTION_START = 'e1ffa83329a3bad650722b32f63cccdc56b5d553';

/** What is wrong with one message (empty when nothing is). */
function messageProblems(message) {
  const lines = withoutComments(message).split('\n');
  const subject = lines[0] ?? '';
  const problems = [];
  if (subject.trim() === '') return ['the subject line is empty'];
  if (subject.length > SUBJECT_LIMIT) {
    problems.push(`the subject has ${subject.length} characters, at most ${SUBJECT_LIMIT}`);
  }
  if (lines.length > 1 && lines[1].trim() !== '') {
    problems.push('the subject must be followed by a blank line');
  } else if (!lines.slice(2).some((line) => line.trim() !== '')) {
    problems.push('no body: after a blank line, say why the change was made');
  }
  return problems;
}

/** Git's own cleanup: comment lines and everything below the scissors go. */
function withoutComments(message) {
  const scissors = message.search(/^# -+ >8 -+$/m);
  const kept = scissors === -1 ? message : message.slice(0, scissors);
  return kept
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/^\n+/, '')
    .replace(/\n+$/, '');
}

const git = (...args) => execFileSync('git', args, { encoding: 'utf8' });

/** The commits base..HEAD, oldest first, without merges (git writes theirs). */
function commitsSince(base) {
  const range = base === null ? 'HEAD' : `${base}..HEAD`;
  const log = git('log', '--reverse', '--no-merges', '--format=%H%x00%B%x01', range);
  return log
    .split('\x01')
    .map((entry) => entry.replace(/^\n/, ''))
    .filter((entry) => entry !== '')
    .map((entry) => {
      const [sha, message] = entry.split('\x00');
      return { sha, message };
    });
}

/**
 * The parent of CONVENTION_START; null in a shallow clone that lacks it, whose
 * commits are all checked instead (a clone of depth 1 still has HEAD's).
 */
function defaultBase() {
  try {
    return git('rev-parse', '--verify', '--quiet', `${CONVENTION_START}^`).trim();
  } catch {
    if (git('rev-parse', '--is-shallow-repository').trim() === 'true') {
      console.log('shallow clone: the convention start is not here; checking every commit it has');
      return null;
    }
    throw new Error(
      `the recorded start of the convention (${CONVENTION_START.slice(0, 7)}) or its parent ` +
        'is not in this history (a shallow clone?): name a <base>',
    );
  }
}

function checkRange(base) {
  const commits = commitsSince(base);
  let failed = 0;
  for (const { sha, message } of commits) {
    const problems = messageProblems(message);
    if (problems.length === 0) continue;
    failed += 1;
    console.log(`${sha.slice(0, 7)} ${message.split('\n')[0].slice(0, 60)}`);
    for (const problem of problems) console.log(`  - ${problem}`);
  }
  console.log(
    `${commits.length - failed} of ${commits.length} commits since ${base?.slice(0, 7) ?? 'the shallow start'} pass`,
  );
  return failed === 0;
}

function checkFile(file) {
  const problems = messageProblems(readFileSync(file, 'utf8'));
  for (const problem of problems) console.error(`commit message: ${problem}`);
  return problems.length === 0;
}

function main(args) {
  if (args[0] === '--message-file') return checkFile(args[1]);
  return checkRange(args[0] ?? defaultBase());
}

try {
  process.exitCode = main(process.argv.slice(2)) ? 0 : 1;
} catch (error) {
  console.error(`check-commit-messages: ${error.message}`);
  process.exitCode = 2;
}
