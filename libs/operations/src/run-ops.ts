import { Command, CommanderError } from 'commander';
import { SCOPES } from '@sts/auth';
import { RISK_LIMIT_NAMES } from '@sts/persistence';
import { isAppError } from '@sts/platform';
import { createApiKey, listApiKeys, revokeApiKey } from './commands/api-keys.commands';
import { addCredential } from './commands/credentials.commands';
import { listDeadMen } from './commands/dead-man.commands';
import { migrate } from './commands/db.commands';
import { clearLimits, listLimits, setLimits } from './commands/limits.commands';
import { setKillSwitch, setMaintenance } from './commands/switches.commands';
import { createUser, linkWallet } from './commands/users.commands';
import { OpsContext } from './ops-context';

export interface OpsResult {
  exitCode: number;
  /** JSON on success; `{ error, code }` on failure. */
  output: Record<string, unknown> | unknown[];
}

/** Wraps a command's action: its result goes to `done`, errors propagate to runOps. */
type Run = <A extends unknown[]>(
  action: (...args: A) => Promise<unknown>,
) => (...args: A) => Promise<void>;

function buildProgram(context: () => OpsContext, done: (result: unknown) => void): Command {
  const program = new Command('ops')
    .description(
      'Operator tool: users, API keys, credentials, risk limits, maintenance, kill switch, dead-man switches. Prints JSON.',
    )
    .option(
      '--operator <id>',
      'operator id recorded in the audit log (default OPERATOR_ID or the OS user)',
    )
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  const run: Run =
    (action) =>
    async (...args) =>
      done(await action(...args));
  addAccountCommands(program, context, run);
  addSwitchCommands(program, context, run);
  addLimitCommands(program, context, run);
  return program;
}

/** Users, wallets, API keys and venue credentials. */
function addAccountCommands(program: Command, context: () => OpsContext, run: Run): void {
  const users = program.command('users').description('user accounts');
  users
    .command('create')
    .requiredOption('--wallet <address>', 'primary wallet')
    .action(run((options: { wallet: string }) => createUser(context(), options)));

  program
    .command('wallets')
    .command('link')
    .requiredOption('--user <id>')
    .requiredOption('--wallet <address>')
    .action(run((options: { user: string; wallet: string }) => linkWallet(context(), options)));

  const keys = program.command('api-keys').description('API keys (the raw key is printed once)');
  keys
    .command('create')
    .requiredOption('--user <id>')
    .requiredOption('--scopes <list>', `comma list of ${SCOPES.join(', ')}`)
    .option('--allow-ip <cidrs>', 'comma list of IPs or CIDRs the key may be used from')
    .option('--expires-days <n>', 'lifetime in days, at most 365 (default 365)')
    .option('--label <text>')
    .action(run((options: Parameters<typeof createApiKey>[1]) => createApiKey(context(), options)));
  keys
    .command('revoke')
    .argument('<key_id>')
    .action(run((keyId: string) => revokeApiKey(context(), keyId)));
  keys
    .command('list')
    .requiredOption('--user <id>')
    .action(run((options: { user: string }) => listApiKeys(context(), options.user)));

  program
    .command('credentials')
    .command('add')
    .requiredOption('--user <id>')
    .requiredOption('--exchange <id>')
    .requiredOption('--wallet <address>')
    .requiredOption('--api-key <key>')
    .option('--api-secret <secret>', 'or set OPS_API_SECRET to keep it out of the process list')
    .action(
      run(
        (options: {
          user: string;
          exchange: string;
          wallet: string;
          apiKey: string;
          apiSecret?: string;
        }) =>
          addCredential(context(), {
            ...options,
            apiSecret: options.apiSecret ?? process.env['OPS_API_SECRET'] ?? '',
          }),
      ),
    );
}

/** Maintenance, the kill switch and the database's migrations. */
function addSwitchCommands(program: Command, context: () => OpsContext, run: Run): void {
  program
    .command('maintenance')
    .command('set')
    .argument('<exchange>', 'a venue id or _system')
    .argument('<state>', 'on or off')
    .option('--reason <text>', 'shown to traders', '')
    .action(
      run((exchange: string, state: string, options: { reason: string }) =>
        setMaintenance(context(), exchange, state, options.reason),
      ),
    );

  program
    .command('kill-switch')
    .argument('<state>', 'on or off')
    .option('--reason <text>', 'shown to traders', '')
    .action(
      run((state: string, options: { reason: string }) =>
        setKillSwitch(context(), state, options.reason),
      ),
    );

  program
    .command('db')
    .command('migrate')
    .action(run(() => migrate(context())));

  program
    .command('dead-man')
    .description("the venue accounts' dead-man switches as the workers keep them (read only)")
    .command('list')
    .option('--venue <id>', 'one venue only')
    .action(run((options: { venue?: string }) => listDeadMen(context(), options)));
}

const LIMIT_UNITS: Record<(typeof RISK_LIMIT_NAMES)[number], string> = {
  max_trade_notional: '<usd>',
  max_open_notional: '<usd>',
  max_open_notional_per_market: '<usd>',
  max_live_trades: '<count>',
  max_slippage: '<fraction>',
};

const optionOf = (name: string): string => `--${name.replace(/_/g, '-')}`;

/** Pre-trade risk limits per user and the default (issue 35). */
function addLimitCommands(program: Command, context: () => OpsContext, run: Run): void {
  const limits = program
    .command('limits')
    .description("pre-trade risk limits: a user's own, else the default's; absent is no limit");
  const scoped = (command: Command): Command =>
    command
      .option('--default', 'the default for every user')
      .option('--user <id>', "one user's override");
  const set = scoped(limits.command('set').description('sets the named limits; others stay'));
  const clear = scoped(
    limits.command('clear').description('removes the named limits (none named: all of the scope)'),
  );
  for (const name of RISK_LIMIT_NAMES) {
    set.option(`${optionOf(name)} ${LIMIT_UNITS[name]}`);
    clear.option(optionOf(name));
  }
  set.action(run((options: Record<string, unknown>) => setLimits(context(), options)));
  clear.action(run((options: Record<string, unknown>) => clearLimits(context(), options)));
  limits
    .command('list')
    .option('--user <id>', 'the default and this user only')
    .action(run((options: { user?: string }) => listLimits(context(), options)));
}

/** Runs one operator command; importable so tests drive the real tool in-process. */
export async function runOps(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
): Promise<OpsResult> {
  let context: OpsContext | undefined;
  let result: unknown;
  const program = buildProgram(
    () => (context ??= new OpsContext(env, program.opts<{ operator?: string }>().operator)),
    (value) => (result = value),
  );
  try {
    await program.parseAsync(argv, { from: 'user' });
    return { exitCode: 0, output: (result ?? {}) as OpsResult['output'] };
  } catch (error) {
    if (error instanceof CommanderError) {
      const help = error.code === 'commander.helpDisplayed' || error.code === 'commander.help';
      return {
        exitCode: help ? 0 : 2,
        output: help
          ? { usage: program.helpInformation() }
          : { error: error.message, code: 'invalid_request' },
      };
    }
    if (isAppError(error)) {
      return { exitCode: 1, output: { error: error.message, code: error.code } };
    }
    return { exitCode: 1, output: { error: (error as Error).message, code: 'internal_error' } };
  } finally {
    await context?.close();
  }
}
