import type { HttpReply, RequestContext } from '../../api/http-kit';
import type { SignedRequest } from '../../api/order-entry';
import type { DialectProfile } from '../dialect-profiles';
import type { LimitedRequest } from '../published-limits';
import {
  LighterError,
  type LighterAccount,
  type LighterAccounts,
  type LighterApiKey,
} from './lighter-accounts';
import type { LIGHTER_READINGS } from './lighter-readings';
import { parseTx } from './lighter-tx-types';
import type { LighterTxRunner, PreparedTx } from './lighter-tx-runner';
import type { LighterVolumeQuota } from './lighter-volume-quota';

/**
 * The most transactions one batch carries: "You can send batch transactions
 * to execute up to 50 transactions in a single message" (apidocs.lighter.xyz
 * websocket-reference, "Send Batch Tx"; the REST reference of `sendTxBatch`
 * names no other bound).
 */
export const MAX_TXS_PER_BATCH = 50;

/** What the batch borrows from the dialect's REST side: the single transaction's path. */
export interface BatchHost {
  readonly accounts: LighterAccounts;
  readonly volumeQuota: LighterVolumeQuota;
  readonly profile: DialectProfile<typeof LIGHTER_READINGS>;
  readonly runner: LighterTxRunner;
  request(context: RequestContext, account: LighterAccount, limited: LimitedRequest): SignedRequest;
  answer(act: () => Promise<HttpReply>): Promise<HttpReply>;
}

const invalid = (why: string) => new LighterError(400, 21501, `invalid tx info: ${why}`);

/** A JSON array from a form field, or the venue's 21501. */
function jsonArray(form: FormData, field: string): unknown[] {
  const text = form.get(field);
  try {
    const value: unknown = JSON.parse(typeof text === 'string' ? text : '');
    if (Array.isArray(value)) {
      return value;
    }
  } catch {
    // refused below
  }
  throw invalid(`${field} is not a JSON array`);
}

/**
 * The form fields of `POST /api/v1/sendTxBatch`: `tx_types`, a JSON array of
 * types, and `tx_infos`, a JSON array of the signed transactions, each the
 * signer's JSON text (as lighter-python's `send_tx_batch` sends the signer's
 * output) or the object itself; one to 50 of them, one type each.
 */
export async function readSendTxBatch(
  rawBody: string,
  contentType: string | undefined,
): Promise<Array<{ txType: number; txInfo: Record<string, unknown> }>> {
  let form: FormData;
  try {
    form = await new Response(rawBody, {
      headers: { 'content-type': contentType ?? '' },
    }).formData();
  } catch {
    throw invalid('not a form');
  }
  const types = jsonArray(form, 'tx_types');
  const infos = jsonArray(form, 'tx_infos');
  if (types.length !== infos.length || infos.length === 0) {
    throw invalid('tx_types and tx_infos must name the same transactions, at least one');
  }
  if (infos.length > MAX_TXS_PER_BATCH) {
    throw invalid(`a batch carries at most ${MAX_TXS_PER_BATCH} transactions`);
  }
  return infos.map((raw, i) => {
    let info: unknown = raw;
    try {
      info = typeof raw === 'string' ? JSON.parse(raw) : raw;
    } catch {
      throw invalid(`tx_infos[${i}] is not JSON`);
    }
    if (!info || typeof info !== 'object' || Array.isArray(info)) {
      throw invalid(`tx_infos[${i}] is not an object`);
    }
    return { txType: Number(types[i]), txInfo: info as Record<string, unknown> };
  });
}

/**
 * The API's checks of a batch before anything executes, in order: each
 * transaction's layout, one account and one API key for all (lighter-python's
 * batch example: "in batch TXs, all TXs must come from the same API key"), its
 * quota and its nonce (in sequence: each reserved after the one before). The
 * first refusal stops the checks; what passed is returned beside it.
 */
function prepareAll(
  host: BatchHost,
  entries: Array<{ txType: number; txInfo: Record<string, unknown> }>,
  first: { account: LighterAccount; key: LighterApiKey },
): { prepared: PreparedTx[]; refusal?: unknown } {
  const prepared: PreparedTx[] = [];
  try {
    for (const { txType, txInfo } of entries) {
      const tx = parseTx(txType, txInfo);
      if (tx.accountIndex !== first.account.index || tx.apiKeyIndex !== first.key.index) {
        throw invalid('a batch is signed by one API key of one account');
      }
      prepared.push(host.runner.prepare(first.account, first.key, { txType, txInfo, tx }));
    }
    return { prepared };
  } catch (refusal) {
    return { prepared, refusal };
  }
}

/**
 * Executes the prepared transactions in order, each as alone; the first the
 * API refuses stops the batch (its refusal, thrown or answered), and the ones
 * after it are given back (nonce and quota unused).
 */
async function executeInOrder(
  host: BatchHost,
  request: SignedRequest,
  prepared: PreparedTx[],
): Promise<HttpReply[] | HttpReply> {
  const replies: HttpReply[] = [];
  for (const [i, tx] of prepared.entries()) {
    const giveBackRest = () => prepared.slice(i + 1).forEach((rest) => host.runner.release(rest));
    let outcome: { reply: HttpReply; accepted: boolean };
    try {
      outcome = await host.runner.execute(request, tx);
    } catch (error) {
      giveBackRest();
      throw error;
    }
    if (!outcome.accepted || outcome.reply.status !== 200) {
      giveBackRest();
      return outcome.reply;
    }
    replies.push(outcome.reply);
  }
  return replies;
}

/** The batch's answer: every transaction's hash, in the order sent, and the quota left. */
function batchAnswer(host: BatchHost, executed: PreparedTx[], replies: HttpReply[]): HttpReply {
  const spent = executed.filter((tx) => tx.claim.kind === 'quota');
  const quota = host.volumeQuota.answerFields(
    spent.length > 0 ? spent[spent.length - 1].claim : (executed[0]?.claim ?? { kind: 'none' }),
  );
  return {
    status: 200,
    body: {
      code: 200,
      message: '{"ratelimit": "didn\'t use volume quota"}',
      ...quota,
      tx_hash: replies.map((reply) => (reply.body as { tx_hash: string }).tx_hash),
      predicted_execution_time_ms: Date.now() + 1,
    },
  };
}

/**
 * `POST /api/v1/sendTxBatch` (lighter-python `TransactionApi.send_tx_batch`,
 * apidocs.lighter.xyz/reference/sendtxbatch): up to 50 signed transactions
 * executed in order, each as `sendTx` would execute it alone (the same
 * checks, nonce rule, volume quota: "If you include n transactions in a
 * SendTxBatch request, n quota will be consumed", LTR-VQ). One request of
 * L2 (or n: reading `tx_batch_l2`). A refusal is answered as the refused
 * transaction's `{code, message}`; what executed before it is the reading
 * `tx_batch_refusal`'s. An order the sequencer closes (a post-only that would
 * cross) is no refusal: its transaction stands, as alone.
 */
export function sendTxBatch(host: BatchHost, context: RequestContext): Promise<HttpReply> {
  return host.answer(async () => {
    const entries = await readSendTxBatch(context.rawBody, context.headers['content-type']);
    const lead = parseTx(entries[0].txType, entries[0].txInfo);
    const account = host.accounts.ofIndex(lead.accountIndex);
    const key = host.accounts.apiKey(account, lead.apiKeyIndex);
    const perTx = host.profile.get('tx_batch_l2') === 'per_transaction';
    const request = host.request(context, account, {
      kind: 'sendTxBatch',
      batch: perTx ? entries.length : 1,
    });
    const { prepared, refusal } = prepareAll(host, entries, { account, key });
    if (refusal !== undefined && host.profile.get('tx_batch_refusal') === 'whole') {
      prepared.forEach((tx) => host.runner.release(tx));
      throw refusal;
    }
    const executed = await executeInOrder(host, request, prepared);
    if (!Array.isArray(executed)) {
      return executed;
    }
    if (refusal !== undefined) {
      throw refusal;
    }
    return batchAnswer(host, prepared, executed);
  });
}
