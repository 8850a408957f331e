import { AnswerLost, type HttpReply } from '../../api/http-kit';
import type { RequestChannel } from '../../api/order-entry';
import { approveAgent, approveBuilderFee } from './hl-approvals';
import { HlActionError, HlBodyError, actionRefusal } from './hl-errors';
import {
  arrayOf,
  parseRequest,
  type ActionCall,
  type ExchangeRequest,
} from './hl-exchange-request';
import { HlNonceError, HlNonces } from './hl-nonces';
import { HlOrderActions, type HlExchangeDeps } from './hl-order-actions';
import { HlScheduleCancel } from './hl-schedule-cancel';
import { addressRequestsOf, HlAddressBudget } from './hl-address-budget';
import {
  HlSignatureError,
  isUserSignedAction,
  recoverL1ActionSigner,
  recoverUserSignedActionSigner,
  venueText,
} from './hl-signing';
import { HYPERLIQUID } from './hl-wire';

export { HYPERLIQUID } from './hl-wire';
export type { HlExchangeDeps } from './hl-order-actions';

/**
 * Hyperliquid's `/exchange`: signed actions, over HTTP or a socket's `post`.
 * The venue recovers the signer from the signature (hl-signing.ts), checks
 * the signer's nonce (hl-nonces.ts), and acts for the signer when it is a
 * funded wallet or for the user that approved it as an API wallet; any other
 * signer is `User or API Wallet 0x… does not exist.` Order actions then run
 * through the shared order path (OrderEntry: faults, expiry, engine), as a
 * paper request does; the venue's per-IP weight limit admitted the request
 * before (index.ts).
 *
 * Actions: `order` (limit orders, `Alo` post-only, `Ioc`, `Gtc` resting when
 * it does not cross; optional `c` cloid; a `builder` only with an approved
 * builder fee), `cancel`, `cancelByCloid`, `modify`, `batchModify`,
 * `updateLeverage` (acknowledged: the engine margins every market at its
 * maximum leverage), `scheduleCancel` (the dead-man switch,
 * hl-schedule-cancel.ts), `setReferrer` and `noop`, and the user-signed
 * `approveAgent` and `approveBuilderFee`. Every action is logged
 * (`GET /dialects/hyperliquid/_sim/actions?user=`).
 */
export class HlExchange {
  private readonly nonces = new HlNonces();
  private readonly orders: HlOrderActions;
  readonly scheduleCancel: HlScheduleCancel;
  /** H5-H7: each address's cumulative requests. */
  readonly addressBudget: HlAddressBudget;

  constructor(private readonly deps: HlExchangeDeps) {
    this.orders = new HlOrderActions(deps);
    this.scheduleCancel = new HlScheduleCancel(deps);
    this.addressBudget = new HlAddressBudget((user) => this.scheduleCancel.tradedVolume(user));
  }

  /** Answers one `/exchange` body; `channel` is the connection it came on. */
  async handle(raw: unknown, channel: RequestChannel): Promise<HttpReply> {
    let logged: { user: string; signer: string; request: ExchangeRequest } | undefined;
    try {
      const request = parseRequest(raw);
      const signer = await this.recoverSigner(request);
      const user = this.actingUser(signer, request.action);
      logged = { user: user ?? signer, signer, request };
      if (!user) {
        throw new HlActionError(venueText.unknownSigner(signer));
      }
      this.nonces.check(signer, request.nonce, Date.now());
      const { requests, cancels } = addressRequestsOf(request.action);
      this.addressBudget.admit(user, requests, cancels, Date.now());
      const call: ActionCall = {
        action: request.action,
        request: { venueId: HYPERLIQUID, accountId: user, channel, limits: 'published' },
        ...(typeof request.expiresAfter === 'number' ? { expiresAfter: request.expiresAfter } : {}),
      };
      const reply = await this.act(call);
      this.record(logged, reply.body);
      return reply;
    } catch (error) {
      if (error instanceof AnswerLost) {
        if (logged) {
          this.record(logged, undefined);
        }
        throw error;
      }
      const reply =
        error instanceof HlSignatureError || error instanceof HlNonceError
          ? new HlActionError(error.message).reply()
          : actionRefusal(error);
      if (reply instanceof AnswerLost) {
        throw reply;
      }
      if (logged) {
        this.record(logged, reply.body);
      }
      return reply;
    }
  }

  private record(
    logged: { user: string; signer: string; request: ExchangeRequest },
    answer: unknown,
  ): void {
    const { action, nonce, vaultAddress, expiresAfter } = logged.request;
    this.deps.state.log({
      atMs: Date.now(),
      user: logged.user,
      signer: logged.signer,
      action,
      nonce,
      ...(vaultAddress !== undefined ? { vaultAddress } : {}),
      ...(expiresAfter !== undefined ? { expiresAfter } : {}),
      answer,
    });
  }

  private async recoverSigner(request: ExchangeRequest): Promise<string> {
    if (isUserSignedAction(request.action['type'])) {
      return recoverUserSignedActionSigner({
        action: request.action,
        signature: request.signature,
      });
    }
    return recoverL1ActionSigner({
      action: request.action,
      nonce: request.nonce,
      signature: request.signature,
      vaultAddress: request.vaultAddress,
      expiresAfter: request.expiresAfter,
    });
  }

  /** The funded user a signer acts for; a user-signed action only for the user itself. */
  private actingUser(signer: string, action: Record<string, unknown>): string | undefined {
    const own = this.deps.funding.account(HYPERLIQUID, signer);
    if (own || isUserSignedAction(action['type'])) {
      return own;
    }
    const user = this.deps.state.userOfAgent(signer);
    return user && this.deps.funding.account(HYPERLIQUID, user);
  }

  private act(call: ActionCall): Promise<HttpReply> {
    const { action } = call;
    switch (action['type']) {
      case 'order':
        return this.orders.order(call);
      case 'cancel':
        return this.orders.cancel(call, 'o');
      case 'cancelByCloid':
        return this.orders.cancel(call, 'cloid');
      case 'modify':
        return this.orders.modify(call, [{ oid: action['oid'], order: action['order'] }]);
      case 'batchModify':
        return this.orders.modify(call, arrayOf(action['modifies']));
      case 'approveAgent':
        return Promise.resolve(approveAgent(this.deps.state, call));
      case 'approveBuilderFee':
        return Promise.resolve(approveBuilderFee(this.deps.state, call));
      case 'updateLeverage':
        return this.orders.acknowledge(call, () => {
          this.orders.asset(call.action['asset']);
          if (!Number.isSafeInteger(call.action['leverage'])) {
            throw new HlBodyError();
          }
        });
      case 'scheduleCancel':
        return this.scheduleCancel.act(call);
      case 'setReferrer':
      case 'noop':
        return this.orders.acknowledge(call, () => undefined);
      default:
        throw new HlBodyError();
    }
  }
}
