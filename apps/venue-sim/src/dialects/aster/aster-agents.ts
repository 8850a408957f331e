import type { HttpReply, RequestContext } from '../../api/http-kit';
import type { RouteTable } from '../limited-routes';
import { AsterError } from './aster-errors';
import { required } from './aster-orders';
import {
  ASTER_MESSAGE_TYPES,
  ASTER_SIGNING_DOMAIN,
  NONCE_WINDOW_US,
  parseParams,
  splitSignedString,
  type NonceBook,
} from './aster-signing';
import type { RequestLog } from './request-log';
import { recoverTypedDataAddress, type Hex } from 'viem';

/** An API wallet ("agent") a main wallet approved, and what it may do. */
interface ApiWallet {
  expiresAtMs: number;
  canPerpTrade: boolean;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const PATH = '/fapi/v3/registerAndApproveAgent';

/**
 * The message a main wallet signs to approve an API wallet, in the order the
 * docs give it (futures v3, "Register and Approve Agent", Signature
 * Instructions); an absent `ipWhitelist` signs as empty.
 */
const MESSAGE_FIELDS = [
  'user',
  'nonce',
  'agentName',
  'agentAddress',
  'expired',
  'signatureChainId',
  'canSpotTrade',
  'canPerpTrade',
  'canWithdraw',
  'ipWhitelist',
] as const;

/**
 * API wallets as Aster registers them: `POST /fapi/v3/registerAndApproveAgent`
 * (PUBLIC: the user's own EIP-712 signature over the message above, in the
 * `AsterSignTransaction` domain with `chainId` = `signatureChainId`). Once
 * approved with `canPerpTrade`, and until `expired` (ms), the API wallet signs
 * the user's futures requests as `signer` (docs: "Authentication signature
 * payload": user = main account wallet, signer = API wallet).
 */
export class AsterAgents {
  private readonly byUser = new Map<string, Map<string, ApiWallet>>();

  constructor(
    private readonly nonces: NonceBook,
    private readonly log: RequestLog,
  ) {}

  addRoutes(router: RouteTable, base: string): void {
    router.add('POST', `${base}${PATH}`, (context) => this.register(context));
  }

  /** Whether `signer` is an API wallet of `user` that may trade futures now. */
  mayTrade(user: string, signer: string, nowMs: number): boolean {
    const wallet = this.byUser.get(user)?.get(signer);
    return !!wallet && wallet.canPerpTrade && wallet.expiresAtMs > nowMs;
  }

  private async register(context: RequestContext): Promise<HttpReply> {
    const raw =
      context.rawBody !== '' ? context.rawBody : (context.pathWithQuery.split('?')[1] ?? '');
    this.log.record('POST', PATH, raw, Date.now());
    try {
      const { msg, signature } = splitSignedString(raw);
      const params = parseParams(msg);
      const user = await this.verify(params, signature);
      const agent = required(params, 'agentAddress');
      if (!ADDRESS.test(agent)) {
        throw new AsterError('invalidParameter', ['agentAddress']);
      }
      if (params['canWithdraw'] === 'true' && !params['ipWhitelist']) {
        throw new AsterError('mandatoryParameter', ['ipWhitelist']);
      }
      const wallets = this.byUser.get(user) ?? new Map<string, ApiWallet>();
      wallets.set(agent.toLowerCase(), {
        expiresAtMs: Number(required(params, 'expired')),
        canPerpTrade: required(params, 'canPerpTrade') === 'true',
      });
      this.byUser.set(user, wallets);
      return { status: 200, body: { code: 200, msg: 'success' } };
    } catch (error) {
      return (error instanceof AsterError ? error : new AsterError('unknown')).reply();
    }
  }

  /** The user's signature over the documented message, and a fresh nonce: the user, lower-cased. */
  private async verify(params: Record<string, string>, signature: string): Promise<string> {
    for (const name of MESSAGE_FIELDS.slice(0, -1)) {
      required(params, name);
    }
    const user = params['user'].toLowerCase();
    const nonceUs = Number(params['nonce']);
    if (!ADDRESS.test(user) || !/^\d{1,16}$/.test(params['nonce'])) {
      throw new AsterError('mandatoryParameter', [ADDRESS.test(user) ? 'nonce' : 'user']);
    }
    const msg = MESSAGE_FIELDS.map((name) => `${name}=${params[name] ?? ''}`).join('&');
    let signer: string | undefined;
    try {
      signer = await recoverTypedDataAddress({
        domain: { ...ASTER_SIGNING_DOMAIN, chainId: Number(params['signatureChainId']) },
        types: ASTER_MESSAGE_TYPES,
        primaryType: 'Message',
        message: { msg },
        signature: signature as Hex,
      });
    } catch {
      signer = undefined;
    }
    if (signer?.toLowerCase() !== user) {
      throw new AsterError('badSignature');
    }
    if (Math.abs(nonceUs - Date.now() * 1000) > NONCE_WINDOW_US) {
      throw new AsterError('outsideRecvWindow');
    }
    this.nonces.accept(user, nonceUs);
    return user;
  }
}
