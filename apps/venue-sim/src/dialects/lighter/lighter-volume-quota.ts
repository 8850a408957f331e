import type Big from 'big.js';
import { LighterError } from './lighter-accounts';

/**
 * Lighter's volume quota (docs/venues/rate-limits.md §5, L3; apidocs.lighter.xyz
 * "Volume Quota", LTR-VQ): a Premium account's allowance of quota-spending
 * `sendTx` transactions, shared by every account of one L1 address. It starts
 * at 1,000, grows by one for every 10 USDC the address trades (a later copy of
 * the page says 3 USD: `usdcPerQuota` is a setting), never expires and stops at
 * 5,000,000. Every 15 s one transaction goes free ("won't consume volume quota
 * (nor show remaining quota)"). Which types spend it: create order (14),
 * cancel-all (16), modify (17) and grouped orders (28); "Cancels do not consume
 * quota" (the copy of the page in docs/venues/rate-limits.md §5).
 *
 * The answers: a transaction that spent quota says what is left, in
 * `volume_quota_remaining` (lighter-python `RespSendTx`) and in its message
 * ("10780 volume quota remaining.", the page); a free one says
 * `{"ratelimit": "didn't use volume quota"}` (ccxt 4.5.84 lighter.js, the
 * venue's answer quoted at createOrder). With nothing left and the free one
 * taken, the venue refuses with code 23000 and "Too Many Requests!:  Not
 * enough volume quota" (the venue's words as two independent Lighter clients
 * record them; not on the venue's pages), here as HTTP 429 like its other
 * limits ("You will receive HTTP 429", LTR-RL-md). A refused transaction
 * spends nothing (it never reached the sequencer). Standard accounts are
 * not in the program (LTR-AT): they spend no quota.
 */
export const VOLUME_QUOTA = {
  initial: 1_000,
  usdcPerQuota: 10,
  max: 5_000_000,
  freeEveryMs: 15_000,
};

/** `tx_type`s that spend the quota (LTR-VQ): create 14, cancel-all 16, modify 17, grouped 28. */
const SPENDING_TX_TYPES: ReadonlySet<number> = new Set([14, 16, 17, 28]);

export const QUOTA_SPENT: LighterError = new LighterError(
  429,
  23000,
  'Too Many Requests!:  Not enough volume quota',
);

/** What one transaction took of its address's quota, until the venue accepts or refuses it. */
export type QuotaClaim =
  | { kind: 'none' }
  | { kind: 'free'; wallet: string; previousFreeMs: number | undefined }
  | { kind: 'quota'; wallet: string };

/** The quota of every L1 address the dialect knows. */
export class LighterVolumeQuota {
  private initial = VOLUME_QUOTA.initial;
  private usdcPerQuota = VOLUME_QUOTA.usdcPerQuota;
  private readonly initialOf = new Map<string, number>();
  private readonly used = new Map<string, number>();
  private readonly lastFreeMs = new Map<string, number>();

  constructor(
    /** USDC the address has traded (its fills, both sides). */
    private readonly volumeOf: (wallet: string) => Big,
    /** Premium accounts are in the program; Standard ones are not. */
    private readonly inProgram: (wallet: string) => boolean,
  ) {}

  /**
   * A test's setting: the quota an address starts with (every address, or
   * one), and the volume that earns one more.
   */
  configure(settings: { initial?: number; wallet?: string; usdcPerQuota?: number }): void {
    if (settings.usdcPerQuota !== undefined) {
      this.usdcPerQuota = settings.usdcPerQuota;
    }
    if (settings.initial === undefined) {
      return;
    }
    if (settings.wallet === undefined) {
      this.initial = settings.initial;
      this.initialOf.clear();
      this.used.clear();
      this.lastFreeMs.clear();
      return;
    }
    const wallet = settings.wallet.toLowerCase();
    this.initialOf.set(wallet, settings.initial);
    this.used.delete(wallet);
    this.lastFreeMs.delete(wallet);
  }

  /** What is left of an address's quota: its start, plus its volume's, less what it spent. */
  remaining(wallet: string): number {
    const key = wallet.toLowerCase();
    const earned = Math.floor(this.volumeOf(key).div(this.usdcPerQuota).toNumber());
    const allowance = Math.min(
      VOLUME_QUOTA.max,
      (this.initialOf.get(key) ?? this.initial) + earned,
    );
    return allowance - (this.used.get(key) ?? 0);
  }

  /** When the address's next free transaction comes (epoch ms; now or past: it is there). */
  nextFreeAtMs(wallet: string): number {
    const last = this.lastFreeMs.get(wallet.toLowerCase());
    return last === undefined ? 0 : last + VOLUME_QUOTA.freeEveryMs;
  }

  /**
   * Takes what a transaction of `txType` spends: the free one of its 15 s
   * when due, else one of the quota; throws the venue's refusal when neither
   * is there. `release` gives it back if the venue then refuses the
   * transaction.
   */
  claim(wallet: string, txType: number, nowMs: number): QuotaClaim {
    const key = wallet.toLowerCase();
    if (!SPENDING_TX_TYPES.has(txType) || !this.inProgram(key)) {
      return { kind: 'none' };
    }
    if (nowMs >= this.nextFreeAtMs(key)) {
      const previousFreeMs = this.lastFreeMs.get(key);
      this.lastFreeMs.set(key, nowMs);
      return { kind: 'free', wallet: key, previousFreeMs };
    }
    if (this.remaining(key) < 1) {
      throw QUOTA_SPENT;
    }
    this.used.set(key, (this.used.get(key) ?? 0) + 1);
    return { kind: 'quota', wallet: key };
  }

  release(claim: QuotaClaim): void {
    if (claim.kind === 'quota') {
      this.used.set(claim.wallet, (this.used.get(claim.wallet) ?? 1) - 1);
    }
    if (claim.kind === 'free') {
      if (claim.previousFreeMs === undefined) {
        this.lastFreeMs.delete(claim.wallet);
      } else {
        this.lastFreeMs.set(claim.wallet, claim.previousFreeMs);
      }
    }
  }

  /** The fields an accepted transaction's answer carries about the quota. */
  answerFields(claim: QuotaClaim): Record<string, unknown> {
    switch (claim.kind) {
      case 'none':
        return {};
      case 'free':
        return { message: '{"ratelimit": "didn\'t use volume quota"}' };
      case 'quota': {
        const left = this.remaining(claim.wallet);
        return {
          message: `{"ratelimit": "${left} volume quota remaining."}`,
          volume_quota_remaining: left,
        };
      }
    }
  }
}
