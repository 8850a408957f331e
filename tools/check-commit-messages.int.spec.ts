import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The checker as the commit-msg hook and CI run it: a Node process, on a
// message file or on a range of a real git repository.
const CHECKER = join(__dirname, 'check-commit-messages.mjs');
const IDENTITY = ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false'];
const GOOD_BODY = '\n\nThe why: the reader of `git log` needs it.\n';

function check(args: string[], cwd = __dirname): { code: number | null; output: string } {
  const run = spawnSync(process.execPath, [CHECKER, ...args], { cwd, encoding: 'utf8' });
  return { code: run.status, output: `${run.stdout}${run.stderr}` };
}

function checkMessage(message: string) {
  const file = join(mkdtempSync(join(tmpdir(), 'sts-commit-msg-')), 'COMMIT_EDITMSG');
  writeFileSync(file, message);
  return check(['--message-file', file]);
}

describe('check-commit-messages on one message (the commit-msg hook)', () => {
  it('accepts a subject of 72 characters with a body', () => {
    expect(checkMessage(`${'s'.repeat(72)}${GOOD_BODY}`)).toEqual({ code: 0, output: '' });
  });

  it('refuses a subject of 73 characters, saying the count', () => {
    const { code, output } = checkMessage(`${'s'.repeat(73)}${GOOD_BODY}`);
    expect(code).toBe(1);
    expect(output).toContain('73 characters, at most 72');
  });

  it('refuses a message with no body', () => {
    for (const message of ['Subject only\n', 'Subject only\n\n\n']) {
      const { code, output } = checkMessage(message);
      expect(code).toBe(1);
      expect(output).toContain('no body');
    }
  });

  it('refuses a body that does not start after a blank line', () => {
    const { code, output } = checkMessage('Subject\nBody glued to it\n');
    expect(code).toBe(1);
    expect(output).toContain('blank line');
  });

  it("counts neither git's comment lines nor what is below the scissors as a body", () => {
    expect(checkMessage('Subject\n\n# Please enter the commit message\n').code).toBe(1);
    const scissors = '# ------------------------ >8 ------------------------';
    expect(checkMessage(`Subject\n\n${scissors}\ndiff --git a/x b/x\n`).code).toBe(1);
    expect(checkMessage(`Subject${GOOD_BODY}# a comment\n${scissors}\ndiff\n`).code).toBe(0);
  });

  it('refuses an empty message', () => {
    expect(checkMessage('\n\n').code).toBe(1);
  });
});

describe('check-commit-messages on a range of commits (CI)', () => {
  const repo = mkdtempSync(join(tmpdir(), 'sts-commit-range-'));
  const git = (...args: string[]) =>
    execFileSync('git', [...IDENTITY, ...args], {
      cwd: repo,
      encoding: 'utf8',
      stdio: 'pipe',
    }).trim();
  const commit = (message: string) => {
    git('commit', '--allow-empty', '--no-verify', '-q', '-m', message);
    return git('rev-parse', 'HEAD');
  };

  let root: string;
  let lastBad: string;
  beforeAll(() => {
    git('init', '-q');
    root = commit('Old history, long before the convention, with no body at all');
    lastBad = commit('x'.repeat(80));
    commit(`First commit of the convention${GOOD_BODY}`);
    commit(`Second one${GOOD_BODY}`);
  });

  it('passes when every commit after the base follows the convention', () => {
    const { code, output } = check([lastBad], repo);
    expect(code).toBe(0);
    expect(output).toContain('2 of 2 commits');
  });

  it('names each commit that does not, and fails', () => {
    const { code, output } = check([root], repo);
    expect(code).toBe(1);
    expect(output).toContain(`${lastBad.slice(0, 7)} ${'x'.repeat(60)}`);
    expect(output).toContain('80 characters');
    expect(output).toContain('2 of 3 commits');
  });

  it('asks for a base where the recorded start of the convention is not in the history', () => {
    const { code, output } = check([], repo);
    expect(code).toBe(2);
    expect(output).toContain('name a <base>');
  });
});
