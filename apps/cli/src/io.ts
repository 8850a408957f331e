import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
/** Where a command writes, and what it reads of the environment (tests pass their own). */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  /** stdout is a terminal: `trades watch` redraws its progress bar in place. */
  tty?: boolean;
  /**
   * Asks the person at the terminal a yes/no question (stdin and stderr are
   * a terminal); absent when nobody can answer (a script, a pipe, CI).
   */
  confirm?: (question: string) => Promise<boolean>;
}

/** Exit codes (README): how `trades watch` says the trade ended, and how a command failed. */
export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  canceled: 3,
  failed: 4,
  rejected: 5,
} as const;

/** A command that stops before it asks the API anything: what to say, its machine code, its exit code. */
export class CliStop extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = 'CliStop';
  }
}

export interface Settings {
  apiUrl: string;
  wsUrl: string;
  apiKey?: string;
  json: boolean;
}

interface ConfigFile {
  api_url?: string;
  ws_url?: string;
  api_key?: string;
}

/** `STS_CONFIG`, else `~/.config/sts/config.json`, if it exists: `{api_url, ws_url, api_key}`. */
function configFileOf(env: CliIo['env']): ConfigFile {
  const path =
    env['STS_CONFIG'] ?? (env['HOME'] ? join(env['HOME'], '.config/sts/config.json') : '');
  if (!path || !existsSync(path)) {
    return {};
  }
  return JSON.parse(readFileSync(path, 'utf8')) as ConfigFile;
}

/** The environment wins over the config file, which wins over the local fleet's defaults. */
export function settingsOf(io: CliIo, json: boolean): Settings {
  const file = configFileOf(io.env);
  return {
    apiUrl: io.env['STS_API_URL'] ?? file.api_url ?? 'http://localhost:3000',
    wsUrl: io.env['STS_WS_URL'] ?? file.ws_url ?? 'ws://localhost:3001/api/v1/ws',
    apiKey: io.env['STS_API_KEY'] ?? file.api_key,
    json,
  };
}
