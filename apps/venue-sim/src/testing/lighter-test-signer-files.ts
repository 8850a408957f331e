import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The smallest valid WebAssembly module: the magic number and version 1. */
const EMPTY_WASM = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

/**
 * The two files ccxt 4.5.84 loads as Lighter's signer, for tests: Go's loader
 * (`lighter-test-signer`, whose `Go` registers the stand-in signer's
 * functions) and a module for it to run (an empty one: the stand-in needs no
 * WebAssembly). What `LIGHTER_WASM_EXEC_JS` and `LIGHTER_SIGNER_WASM`, or
 * ccxt's `wasmExecPath` and `libraryPath`, point at in tests.
 */
export function lighterTestSignerFiles(): { libraryPath: string; wasmExecPath: string } {
  const directory = join(tmpdir(), 'sts-lighter-test-signer');
  const libraryPath = join(directory, 'empty.wasm');
  if (!existsSync(libraryPath)) {
    mkdirSync(directory, { recursive: true });
    writeFileSync(libraryPath, EMPTY_WASM);
  }
  return { libraryPath, wasmExecPath: require.resolve('./lighter-test-signer') };
}

/** An API key pair of the tests for a label: the private key (40 bytes, hex) and the public half registered with the venue. */
export function lighterTestApiKey(label: string): { privateKey: string; publicKey: string } {
  const digest = (text: string) => createHash('sha512').update(text).digest('hex').slice(0, 80);
  const privateKey = digest(`sts-lighter-api-key:${label}`);
  return { privateKey, publicKey: digest(`public:${privateKey}`) };
}
