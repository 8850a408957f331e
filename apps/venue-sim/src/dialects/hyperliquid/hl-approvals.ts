import Big from 'big.js';
import type { HttpReply } from '../../api/http-kit';
import { HlActionError, HlBodyError, hlText } from './hl-errors';
import { ADDRESS, type ActionCall } from './hl-exchange-request';
import type { HlState } from './hl-state';

/** The user-signed approvals (an API wallet, a builder's fee) and the check of an order's builder. */

export function approveAgent(state: HlState, call: ActionCall): HttpReply {
  const agent = call.action['agentAddress'];
  if (typeof agent !== 'string' || !ADDRESS.test(agent)) {
    throw new HlBodyError();
  }
  state.approveAgent(call.request.accountId, agent);
  return ok();
}

export function approveBuilderFee(state: HlState, call: ActionCall): HttpReply {
  const { builder, maxFeeRate } = call.action;
  if (typeof builder !== 'string' || !ADDRESS.test(builder)) {
    throw new HlBodyError();
  }
  if (typeof maxFeeRate !== 'string' || !/^\d+(\.\d+)?%$/.test(maxFeeRate)) {
    throw new HlBodyError();
  }
  state.approveBuilder(call.request.accountId, builder, maxFeeRate);
  return ok();
}

/** An order naming a builder needs the user's approval of that builder's fee. */
export function checkBuilder(state: HlState, accountId: string, builder: unknown): void {
  if (builder === undefined) {
    return;
  }
  const { b, f } = (builder ?? {}) as { b?: unknown; f?: unknown };
  if (typeof b !== 'string' || !ADDRESS.test(b) || !Number.isSafeInteger(f)) {
    throw new HlBodyError();
  }
  const approved = state.builders.get(accountId)?.get(b.toLowerCase());
  // f is in tenths of a basis point; an approval is a percent ("0.01%" = 10).
  if (approved === undefined || new Big(approved.slice(0, -1)).times(1000).lt(f as number)) {
    throw new HlActionError(hlText.builderNotApproved);
  }
}

export const ok = (): HttpReply => ({
  status: 200,
  body: { status: 'ok', response: { type: 'default' } },
});
