import { randomBytes } from 'node:crypto';
import { runOps } from '@sts/operations';

export interface TestUser {
  userId: string;
  wallet: string;
  apiKey: string;
  keyId: string;
}

export interface PaperCredential {
  apiKey: string;
  apiSecret: string;
  wallet: string;
}

/**
 * Specs set up accounts the way operators do: through the real operator tool,
 * against the spec's own database.
 */
export class TestOperator {
  constructor(private readonly env: () => Record<string, string>) {}

  /** Runs one operator command; throws with its output if it fails. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- operator output is JSON read by specs
  async ops<T = any>(...argv: string[]): Promise<T> {
    const result = await runOps(argv, this.env());
    if (result.exitCode !== 0) {
      throw new Error(`ops ${argv.join(' ')} failed: ${JSON.stringify(result.output)}`);
    }
    return result.output as T;
  }

  /** A user with a primary wallet (fresh unless given) and an API key holding `scopes`. */
  async userWithKey(
    scopes: string,
    extra: string[] = [],
    wallet = `0x${randomBytes(20).toString('hex')}`,
  ): Promise<TestUser> {
    const user = await this.ops('users', 'create', '--wallet', wallet);
    const key = await this.ops(
      'api-keys',
      'create',
      '--user',
      user.user_id,
      '--scopes',
      scopes,
      ...extra,
    );
    return { userId: user.user_id, wallet, apiKey: key.api_key, keyId: key.key_id };
  }

  /** Seeds a paper credential for the wallet on the exchange and returns it. */
  paperCredential(userId: string, exchange: string, wallet: string): Promise<PaperCredential> {
    return this.credential(userId, exchange, {
      apiKey: `paper-${randomBytes(6).toString('hex')}`,
      apiSecret: randomBytes(16).toString('hex'),
      wallet,
    });
  }

  /**
   * Seeds a live credential as an operator stores one: `api_key` the signer's
   * address (an API wallet, or the wallet itself), `api_secret` its private
   * key, for the trading wallet.
   */
  liveCredential(
    userId: string,
    exchange: string,
    wallet: string,
    signer: { address: string; privateKey: string },
  ): Promise<PaperCredential> {
    return this.credential(userId, exchange, {
      apiKey: signer.address,
      apiSecret: signer.privateKey,
      wallet,
    });
  }

  private async credential(
    userId: string,
    exchange: string,
    credential: PaperCredential,
  ): Promise<PaperCredential> {
    await this.ops(
      'credentials',
      'add',
      '--user',
      userId,
      '--exchange',
      exchange,
      '--wallet',
      credential.wallet,
      '--api-key',
      credential.apiKey,
      '--api-secret',
      credential.apiSecret,
    );
    return credential;
  }
}
