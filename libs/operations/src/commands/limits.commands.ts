import Big from 'big.js';
import { formatDecimal, isNonNegativeDecimalString } from '@sts/domain';
import {
  RISK_LIMIT_NAMES,
  RiskLimitsRepository,
  UserEntity,
  type RiskLimitName,
  type RiskLimitsRow,
} from '@sts/persistence';
import { AppError } from '@sts/platform';
import type { OpsContext } from '../ops-context';

/** The audit target of the default's changes (a user's are their id). */
export const DEFAULT_LIMITS_TARGET = '_default';

/** Whose limits: `--default` (every user without an override) or `--user ID`. */
export interface LimitsScope {
  default?: boolean;
  user?: string;
}

/** commander's name of each limit's option: `--max-open-notional` is `maxOpenNotional`. */
export const limitOptionKey = (name: RiskLimitName): string =>
  name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** `--max-live-trades`: a count that fits the column (int4). */
const COUNT = /^(0|[1-9]\d{0,8})$/;

function scopeOf(options: LimitsScope): string | null {
  if (Boolean(options.default) === (options.user !== undefined)) {
    throw new AppError('invalid_request', 'name one scope: --default or --user ID');
  }
  return options.user ?? null;
}

/** The given limits, checked and in canonical form (USD notionals and max_slippage decimals). */
function limitValuesOf(options: Record<string, unknown>): Partial<Record<RiskLimitName, string>> {
  const values: Partial<Record<RiskLimitName, string>> = {};
  for (const name of RISK_LIMIT_NAMES) {
    const value = options[limitOptionKey(name)];
    if (value === undefined) {
      continue;
    }
    if (
      name === 'max_live_trades' ? !COUNT.test(String(value)) : !isNonNegativeDecimalString(value)
    ) {
      throw new AppError(
        'invalid_request',
        `${name} must be ${name === 'max_live_trades' ? 'a whole number' : 'a non-negative decimal'}, got ${String(value)}`,
      );
    }
    values[name] = formatDecimal(new Big(value as string));
  }
  return values;
}

async function assertUserExists(context: OpsContext, userId: string | null): Promise<void> {
  if (userId === null) {
    return;
  }
  if (!(await (await context.db()).getRepository(UserEntity).existsBy({ id: userId }))) {
    throw new AppError('not_found', `no user ${userId}`);
  }
}

function present(row: RiskLimitsRow) {
  return {
    scope: row.userId === null ? 'default' : 'user',
    user_id: row.userId,
    ...row.limits,
    updated_by: row.updatedBy,
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Sets the named limits of one scope; the others stay. Audited with what was set. */
export async function setLimits(
  context: OpsContext,
  options: LimitsScope & Record<string, unknown>,
) {
  const userId = scopeOf(options);
  const values = limitValuesOf(options);
  if (Object.keys(values).length === 0) {
    throw new AppError(
      'invalid_request',
      `name at least one limit: ${RISK_LIMIT_NAMES.map((name) => `--${name.replace(/_/g, '-')}`).join(', ')}`,
    );
  }
  await assertUserExists(context, userId);
  const db = await context.db();
  const row = await db.transaction(async (manager) => {
    const stored = await new RiskLimitsRepository(manager).set(userId, values, context.operatorId);
    await context.audit(manager, 'limits.set', userId ?? DEFAULT_LIMITS_TARGET, { set: values });
    return stored;
  });
  return present(row);
}

/** Removes the named limits of one scope (none named: all of them). Audited with what was cleared. */
export async function clearLimits(
  context: OpsContext,
  options: LimitsScope & Record<string, unknown>,
  now = new Date(),
) {
  const userId = scopeOf(options);
  const named = RISK_LIMIT_NAMES.filter((name) => options[limitOptionKey(name)] === true);
  const cleared = named.length > 0 ? named : [...RISK_LIMIT_NAMES];
  await assertUserExists(context, userId);
  const db = await context.db();
  const row = await db.transaction(async (manager) => {
    const left = await new RiskLimitsRepository(manager).clear(userId, cleared, context.operatorId);
    await context.audit(manager, 'limits.clear', userId ?? DEFAULT_LIMITS_TARGET, { cleared });
    return left;
  });
  const none = Object.fromEntries(RISK_LIMIT_NAMES.map((name) => [name, null]));
  return {
    ...present(
      row ?? {
        userId,
        limits: none as RiskLimitsRow['limits'],
        updatedBy: context.operatorId,
        updatedAt: now,
      },
    ),
    cleared,
  };
}

/** Every scope's stored limits (`--user ID`: the default and that user's). */
export async function listLimits(context: OpsContext, options: { user?: string }) {
  const rows = await new RiskLimitsRepository((await context.db()).manager).all();
  return rows
    .filter(
      (row) => options.user === undefined || row.userId === null || row.userId === options.user,
    )
    .map(present);
}
