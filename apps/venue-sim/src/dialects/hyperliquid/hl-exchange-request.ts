import type { SignedRequest } from '../../api/order-entry';
import { engineOrderId } from '../engine-ids';
import { HlActionError, HlBodyError } from './hl-errors';
import type { HlSignature } from './hl-signing';
/** The shapes of an `/exchange` body and of its orders, read and checked field by field. */

const DECIMAL = /^\d+(\.\d+)?$/;
export const CLOID = /^0x[0-9a-fA-F]{32}$/;
export const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** What an action handler gets: the account it acts for and how to reach it. */
export interface ActionCall {
  action: Record<string, unknown>;
  request: SignedRequest;
  expiresAfter?: number;
}

/** One order of an `order` action, as the venue's wire names its fields. */
export interface WireOrder {
  a: number;
  b: boolean;
  p: string;
  s: string;
  r: boolean;
  t: { limit?: { tif?: unknown }; trigger?: unknown };
  c?: string;
}

/** An `/exchange` body. */
export interface ExchangeRequest {
  action: Record<string, unknown>;
  nonce: number;
  signature: HlSignature;
  vaultAddress?: string | null;
  expiresAfter?: number | null;
}

export function parseRequest(raw: unknown): ExchangeRequest {
  if (!isObject(raw)) {
    throw new HlBodyError();
  }
  const { action, nonce, signature, vaultAddress, expiresAfter } = raw;
  if (!isObject(action) || typeof action['type'] !== 'string') {
    throw new HlBodyError();
  }
  if (!Number.isSafeInteger(nonce)) {
    throw new HlBodyError();
  }
  if (!isObject(signature)) {
    throw new HlBodyError();
  }
  const { r, s, v } = signature;
  if (typeof r !== 'string' || typeof s !== 'string' || typeof v !== 'number') {
    throw new HlBodyError();
  }
  if (vaultAddress !== undefined && vaultAddress !== null) {
    throw new HlActionError('Vault not registered: the simulated venue has no vaults.');
  }
  if (expiresAfter !== undefined && expiresAfter !== null && !Number.isSafeInteger(expiresAfter)) {
    throw new HlBodyError();
  }
  return {
    action,
    nonce: nonce as number,
    signature: { r, s, v },
    ...(vaultAddress !== undefined ? { vaultAddress } : {}),
    ...(expiresAfter !== undefined ? { expiresAfter: expiresAfter as number | null } : {}),
  };
}

export function parseWireOrder(value: unknown): WireOrder {
  if (!isObject(value)) {
    throw new HlBodyError();
  }
  const { a, b, p, s, r, t, c } = value;
  if (!Number.isSafeInteger(a) || typeof b !== 'boolean' || typeof r !== 'boolean') {
    throw new HlBodyError();
  }
  if (typeof p !== 'string' || !DECIMAL.test(p) || typeof s !== 'string' || !DECIMAL.test(s)) {
    throw new HlBodyError();
  }
  if (!isObject(t) || (t['limit'] === undefined) === (t['trigger'] === undefined)) {
    throw new HlBodyError();
  }
  if (c !== undefined && !(typeof c === 'string' && CLOID.test(c))) {
    throw new HlBodyError();
  }
  return {
    a: a as number,
    b,
    p,
    s,
    r,
    t: t as WireOrder['t'],
    ...(c !== undefined ? { c: c as string } : {}),
  };
}

/** An order named by oid (a number) or cloid (0x + 32 hex). */
export function targetOf(id: number | string): { orderId: string } | { clientOrderId: string } {
  if (typeof id === 'string') {
    return { clientOrderId: id.toLowerCase() };
  }
  const orderId = engineOrderId(id);
  if (!orderId) {
    throw new HlBodyError();
  }
  return { orderId };
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export function arrayOf(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) {
    throw new HlBodyError();
  }
  return value.map((entry) => {
    if (!isObject(entry)) {
      throw new HlBodyError();
    }
    return entry;
  });
}
