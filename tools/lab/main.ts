import { Lab } from './lab';
import { HOSTS, isHost, isNodeHost, type HostName, type NodeHost } from './layout';
import type { UpOptions } from './services';
import { formatStatus } from './status';

const USAGE = `npm run lab -- <command> [options]   (tools/lab/README.md)

  up [--workers-ttl-ms N] [--lease-renew-ms N] [--takeover-scan-ms N]
     [--maintenance-poll-ms N] [--shutdown-grace-ms N] [--seed N] [--sim-tick-ms N]
     [--log-level L] [--nats-prefix P] [--env KEY=VALUE]... [--no-faketime] [--keep-on-failure]
  down
  status [--json]
  info                                  the URLs up printed
  isolate <host>                        host: infra, h1, h2, h3
  cut-infra <h1|h2|h3>
  kill <host> | revive <host>
  kill-nats-meta-leader
  kill-nats-stream-leader <stream>      STS_EVENTS, or EVENTS with the NATS prefix
  revive-nats <h1|h2|h3>
  delay <ms> [loss-percent] [--hosts h1,h2]
  skew <h1|h2|h3> <seconds>
  heal [host]

Every command: --name <prefix> (LAB_NAME, default stslab), --net <n> (LAB_NET, default 77),
--state-dir <dir> (LAB_STATE_DIR, default tmp/lab/<prefix>).`;

interface Parsed {
  command: string;
  args: string[];
  flags: Map<string, string[]>;
}

const BOOLEAN_FLAGS = new Set(['json', 'no-faketime', 'keep-on-failure', 'help']);

/** `--flag value` (or `--flag=value`), boolean flags, positionals (negative numbers too; all after `--`). */
function parse(argv: string[]): Parsed {
  const flags = new Map<string, string[]>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
    const value = BOOLEAN_FLAGS.has(name) ? 'true' : (inline ?? argv[++i]);
    if (value === undefined) {
      throw new Error(`--${name} needs a value`);
    }
    flags.set(name, [...(flags.get(name) ?? []), value]);
  }
  const [command = 'help', ...args] = positionals;
  return { command, args, flags };
}

function number(value: string | undefined, what: string): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) {
    throw new Error(`${what}: not a number: ${value}`);
  }
  return parsed;
}

function upOptions(flags: Map<string, string[]>): UpOptions {
  const one = (name: string): string | undefined => flags.get(name)?.at(-1);
  const env: Record<string, string> = {};
  for (const pair of flags.get('env') ?? []) {
    const at = pair.indexOf('=');
    if (at < 1) {
      throw new Error(`--env ${pair}: KEY=VALUE`);
    }
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return {
    worker: {
      leaseTtlMs: number(one('workers-ttl-ms'), '--workers-ttl-ms'),
      leaseRenewMs: number(one('lease-renew-ms'), '--lease-renew-ms'),
      takeoverScanMs: number(one('takeover-scan-ms'), '--takeover-scan-ms'),
      maintenancePollMs: number(one('maintenance-poll-ms'), '--maintenance-poll-ms'),
      shutdownGraceMs: number(one('shutdown-grace-ms'), '--shutdown-grace-ms'),
    },
    env,
    seed: number(one('seed'), '--seed'),
    simTickMs: number(one('sim-tick-ms'), '--sim-tick-ms'),
    logLevel: one('log-level'),
    natsPrefix: one('nats-prefix'),
    faketime: flags.has('no-faketime') ? false : undefined,
    keepOnFailure: flags.has('keep-on-failure'),
  };
}

function host(value: string | undefined): HostName {
  if (!value || !isHost(value)) {
    throw new Error(`a host: ${HOSTS.join(', ')} (got ${value ?? 'none'})`);
  }
  return value;
}

function nodeHost(value: string | undefined): NodeHost {
  if (!value || !isNodeHost(value)) {
    throw new Error(`a service host: h1, h2, h3 (got ${value ?? 'none'})`);
  }
  return value;
}

const print = (value: unknown): void => {
  process.stdout.write(`${typeof value === 'string' ? value : JSON.stringify(value, null, 2)}\n`);
};

/** Without the key: the URLs are for the terminal, the key stays in state.json. */
function printable<T extends { env: Record<string, string>; stateDir: string }>(info: T): T {
  const { CREDENTIALS_KEK: _kek, ...env } = info.env;
  return { ...info, env: { ...env, CREDENTIALS_KEK: `(in ${info.stateDir}/state.json)` } };
}

/** The fault commands (each a Lab method). */
async function runFault(lab: Lab, command: string, args: string[], flags: Parsed['flags']) {
  switch (command) {
    case 'isolate':
      return lab.isolate(host(args[0]));
    case 'cut-infra':
      return lab.cutInfra(nodeHost(args[0]));
    case 'kill':
      return print(`killed ${(await lab.kill(host(args[0]))).length} processes on ${args[0]}`);
    case 'revive':
      return lab.revive(host(args[0]));
    case 'kill-nats-meta-leader':
      return print(await lab.killNatsMetaLeader());
    case 'kill-nats-stream-leader':
      if (!args[0]) {
        throw new Error('kill-nats-stream-leader <stream>');
      }
      return print(await lab.killNatsStreamLeader(args[0]));
    case 'revive-nats':
      return lab.reviveNats(nodeHost(args[0]));
    case 'delay': {
      const ms = number(args[0], 'delay <ms>');
      if (ms === undefined) {
        throw new Error('delay <ms> [loss-percent]');
      }
      const hosts = flags.get('hosts')?.at(-1)?.split(',').map(host);
      return lab.delay(ms, number(args[1], 'loss-percent') ?? 0, hosts);
    }
    case 'skew': {
      const seconds = number(args[1], 'skew <host> <seconds>');
      if (seconds === undefined) {
        throw new Error('skew <host> <seconds>');
      }
      return lab.skew(nodeHost(args[0]), seconds);
    }
    case 'heal':
      return lab.heal(args[0] === undefined ? undefined : host(args[0]));
    default:
      throw new Error(`unknown command ${command}\n\n${USAGE}`);
  }
}

async function runCommand(lab: Lab, { command, args, flags }: Parsed): Promise<void> {
  switch (command) {
    case 'up': {
      const started = Date.now();
      const info = await lab.up(upOptions(flags));
      print(printable(info));
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stderr.write(`lab ${info.name} up in ${seconds} s\n`);
      return;
    }
    case 'down': {
      const { killed, left } = await lab.down();
      const rest = [...left.namespaces, ...left.links];
      print(
        `lab ${lab.layout.name} down: ${killed} processes killed` +
          (rest.length > 0 ? `; LEFT: ${rest.join(', ')}` : ''),
      );
      process.exitCode = rest.length > 0 ? 1 : 0;
      return;
    }
    case 'status': {
      const status = await lab.status();
      return print(flags.has('json') ? status : formatStatus(status));
    }
    case 'info':
      return print(printable(lab.info()));
    case 'help':
      return print(USAGE);
    default:
      return runFault(lab, command, args, flags);
  }
}

async function main(): Promise<void> {
  const parsed = parse(process.argv.slice(2));
  if (parsed.flags.has('help')) {
    return print(USAGE);
  }
  const one = (name: string): string | undefined => parsed.flags.get(name)?.at(-1);
  const lab = new Lab({
    name: one('name'),
    net: number(one('net'), '--net'),
    stateDir: one('state-dir'),
  });
  await runCommand(lab, parsed);
}

main().catch((error: unknown) => {
  process.stderr.write(`lab: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
