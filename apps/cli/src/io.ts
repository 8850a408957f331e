/** Where a command writes, and what it reads of the environment (tests pass their own). */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
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

export interface Settings {
  apiUrl: string;
  wsUrl: string;
  apiKey?: string;
  json: boolean;
}

export const settingsOf = (io: CliIo, json: boolean): Settings => ({
  apiUrl: io.env['STS_API_URL'] ?? 'http://localhost:3000',
  wsUrl: io.env['STS_WS_URL'] ?? 'ws://localhost:3001/api/v1/ws',
  apiKey: io.env['STS_API_KEY'],
  json,
});
