import type { HttpReply } from '../../api/http-kit';
import type { SignedRequest } from '../../api/order-entry';
import type { DialectProfile } from '../dialect-profiles';
import type { LighterAccount, LighterApiKey } from './lighter-accounts';
import type { LighterCancelAll } from './lighter-cancel-all';
import type { LighterOrders } from './lighter-orders';
import type { LIGHTER_READINGS } from './lighter-readings';
import type { LighterTx } from './lighter-tx-types';
import type { LighterVolumeQuota, QuotaClaim } from './lighter-volume-quota';

/** Accepted transactions remembered for `_sim/txs` (the tests' view of what was sent). */
const LOGGED_TXS = 10_000;

interface LoggedTx {
  account: number;
  api_key_index: number;
  tx_type: number;
  nonce: number;
  tx_info: Record<string, unknown>;
}

/** A signed transaction, read and parsed. */
export interface TxEntry {
  txType: number;
  txInfo: Record<string, unknown>;
  tx: LighterTx;
}

/** A transaction whose quota is claimed and nonce reserved, about to execute. */
export interface PreparedTx extends TxEntry {
  account: LighterAccount;
  key: LighterApiKey;
  claim: QuotaClaim;
}

/**
 * A signed transaction's way through the venue once its request is admitted,
 * the same alone (`sendTx`) or in a batch (`sendTxBatch`): the API's checks
 * that hold it back (the volume quota, then the nonce, reserved), then its
 * execution. Only a transaction the venue accepts uses its nonce and quota
 * ("Handle Nonces": an API-level error does not use the nonce); one refused,
 * or never executed, gives both back.
 */
export class LighterTxRunner {
  private readonly txs: LoggedTx[] = [];

  constructor(
    private readonly orders: LighterOrders,
    private readonly cancelAll: LighterCancelAll,
    private readonly volumeQuota: LighterVolumeQuota,
    private readonly profile: DialectProfile<typeof LIGHTER_READINGS>,
  ) {}

  /**
   * Claims the transaction's quota (over it the venue refuses at its API: no
   * nonce is used), then reserves its nonce; `release` gives both back.
   */
  prepare(account: LighterAccount, key: LighterApiKey, entry: TxEntry): PreparedTx {
    const claim = this.volumeQuota.claim(account.wallet, entry.txType, Date.now());
    try {
      key.nonces.reserve(entry.tx.nonce, entry.tx.skipNonce, this.profile.get('skip_nonce_order'));
    } catch (error) {
      this.volumeQuota.release(claim);
      throw error;
    }
    return { ...entry, account, key, claim };
  }

  release(prepared: PreparedTx): void {
    prepared.key.nonces.release(prepared.tx.nonce);
    this.volumeQuota.release(prepared.claim);
  }

  /** Executes a prepared transaction: accepted, its nonce is used and it is logged. */
  async execute(
    request: SignedRequest,
    prepared: PreparedTx,
  ): Promise<{ reply: HttpReply; accepted: boolean }> {
    const { account, key, tx, txType, txInfo } = prepared;
    let accepted = false;
    const onAccepted = () => {
      accepted = true;
      key.nonces.commit(tx.nonce);
      this.log({
        account: account.index,
        api_key_index: key.index,
        tx_type: txType,
        nonce: tx.nonce,
        tx_info: txInfo,
      });
    };
    try {
      const reply = await ('clientOrderIndex' in tx
        ? this.orders.place(request, account, tx, onAccepted)
        : 'timeInForce' in tx
          ? this.cancelAll.execute(request, account, tx, onAccepted)
          : this.orders.cancel(request, account, tx, onAccepted));
      return { reply, accepted };
    } finally {
      key.nonces.release(tx.nonce);
      if (!accepted) {
        this.volumeQuota.release(prepared.claim);
      }
    }
  }

  /** The transactions the venue accepted from an account (`_sim/txs`). */
  loggedOf(account: number): LoggedTx[] {
    return this.txs.filter((tx) => tx.account === account);
  }

  private log(tx: LoggedTx): void {
    this.txs.push(tx);
    if (this.txs.length > LOGGED_TXS) {
      this.txs.shift();
    }
  }
}
