import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CommittedRow, LiveTermsRow } from '@sts/persistence';
import { AppError, type Dependency } from '@sts/platform';
import type { GatewayConfig } from '../../../config/load-gateway-settings';
import { GATEWAY_CONFIG } from '../../../infrastructure/tokens';
import { CreateTradeRisk, type CreateRisk } from './create-trade-risk';
import { CreateTradeTransaction } from './create-trade.transaction';
import { GroupQueue, type Settled } from './group-queue';
import { admitRequestOf, capLockOf, newTradeRow, startCommandOf, type NewTrade } from './new-trade';
import { RateBudgets, type GrantedBudgets } from './rate-budgets';

/** A create past the rules answered from memory, waiting for rules 1, 6, the risk limits, 7 and its insert. */
export interface PendingCreate {
  trade: NewTrade;
  makerCap: number;
  correlationId: string;
  /** Set when the user has risk limits: checked after rules 1 and 6, before rule 7. */
  risk?: CreateRisk;
  /** Set once the budget service granted it: a create that fails after gives it back. */
  reserved: boolean;
  /** When its caller stops waiting for it (performance.now() time): GATEWAY_CREATE_DEADLINE_MS after arrival. */
  deadlineMs: number;
}

/** What a group's insert and commit are left at least, when it sizes its budget wait. */
const COMMIT_ALLOWANCE_MS = 250;
/** A budget wait shorter than this is not started: the create is answered at once. */
const MIN_BUDGET_WAIT_MS = 100;

/** A create that cannot be answered by its deadline: 503 naming what held it up, retry. */
const pastDeadline = (dependency: Dependency): AppError =>
  new AppError(
    'service_unavailable',
    `the create could not be completed in time (${dependency} is slow to answer); retry`,
    { reason: dependency },
  );

/** `created`: committed with its start command. `replayed`: its idempotency key's trade exists. */
export type GroupAnswer =
  | {
      kind: 'created';
      tradeId: string;
      rateBudget: number;
      hedgeRateBudget: number | null;
      startCommand: CommittedRow;
    }
  | { kind: 'replayed' };

type Outcome = Settled<GroupAnswer>;

/**
 * Creates admitted and inserted in groups (GroupQueue): one transaction for
 * every create that waited while the groups in flight ran, so its two round
 * trips, its commit and the locks' bookkeeping are paid once per group.
 *
 * A group holds at most one create per (maker wallet, cap group), per
 * (user, idempotency key) and per user with limits that count their live
 * trades: each create's cap count, replay check and risk limits see no other
 * create of its group, exactly as if it ran alone. The admits take their
 * users' risk locks, then the cap locks, each in key order, so two groups
 * (on two replicas) never wait on each other in a circle. A create a rule refuses, or whose budget is refused,
 * drops out without touching the others; a group that fails as a whole (a
 * unique key raced by another replica, a lost connection) is run again
 * create by create, each keeping its reservation (reserves are idempotent by
 * trade id), so one bad create never fails its neighbours. A group waits at
 * most GATEWAY_CREATE_GROUP_LOCK_WAIT_MS on a lock held elsewhere (a wallet's
 * cap lock in another replica's group) before it fails so, and each create
 * of a failed group is answered as soon as its own run ends: a contended
 * wallet holds up only its own create.
 *
 * Every create has a deadline (GATEWAY_CREATE_DEADLINE_MS after it came in):
 * one still waiting for a group then is answered 503 service_unavailable,
 * naming what the oldest group in flight waits on; a group asks the budget
 * service for no longer than its earliest create has left. A budget service
 * replica cut off from the rest (its NATS node still counted as a route)
 * takes a reservation's whole timeout: without the deadline, the creates of
 * one wallet queued behind such groups one after another and hung past any
 * client's timeout (the partition suite's isolate-host, 2 in 3 runs).
 */
@Injectable()
export class CreateTradeGroups {
  private readonly queue: GroupQueue<PendingCreate, GroupAnswer>;
  private readonly groupListeners: Array<(size: number) => void> = [];
  /** What each group in flight waits on now, oldest first (a create past its deadline names it). */
  private readonly waitingOn = new Map<PendingCreate[], Dependency>();

  constructor(
    private readonly dataSource: DataSource,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly budgets: RateBudgets,
    private readonly risk: CreateTradeRisk,
  ) {
    this.queue = new GroupQueue(
      (group) => this.run(group),
      (create) => [
        `cap ${capLockOf(create.trade)}`,
        `key ${create.trade.userId} ${create.trade.idempotencyKey}`,
        ...(create.risk?.countsLiveTrades ? [`risk ${create.trade.userId}`] : []),
      ],
      {
        inFlight: config.settings.createGroupsInFlight,
        maxSize: config.settings.createGroupMax,
        overlapMin: config.settings.createGroupOverlapMin,
        overlapAfterMs: config.settings.createGroupOverlapAfterMs,
      },
      {
        onGroup: (size) => this.groupListeners.forEach((listener) => listener(size)),
        expiry: {
          deadlineOf: (create) => create.deadlineMs,
          expired: () => pastDeadline(this.waitingOn.values().next().value ?? 'postgres'),
        },
      },
    );
  }

  submit(create: PendingCreate): Promise<Outcome> {
    return this.queue.submit(create);
  }

  /** Creates waiting for a group to start (the gateway's metrics). */
  get waiting(): number {
    return this.queue.waitingCount;
  }

  /** Hears the size of every group as it starts (the gateway's metrics). */
  onGroup(listener: (size: number) => void): void {
    this.groupListeners.push(listener);
  }

  /**
   * The group's outcomes; when it fails as a whole, each create's own run
   * alone, answered as soon as it ends (never held for the slowest).
   */
  private async run(group: PendingCreate[]): Promise<Array<Outcome | Promise<Outcome>>> {
    try {
      return await this.attempt(group);
    } catch (error) {
      return group.length > 1
        ? group.map((create) => this.alone(create))
        : [await this.failed(group[0]!, error)];
    }
  }

  private async alone(create: PendingCreate): Promise<Outcome> {
    try {
      const [outcome] = await this.attempt([create]);
      return outcome!;
    } catch (error) {
      return this.failed(create, error);
    }
  }

  /** A create that failed for good gives back the budget it was granted. */
  private async failed(create: PendingCreate, error: unknown): Promise<Outcome> {
    if (create.reserved) {
      await this.budgets.release(create.trade.id, 'create_failed').catch(() => undefined);
    }
    return { error };
  }

  /** Admit, reserve, insert and commit, in one transaction; throws when the group fails as a whole. */
  private async attempt(group: PendingCreate[]): Promise<Outcome[]> {
    this.waitingOn.set(group, 'postgres');
    const transaction = await CreateTradeTransaction.open(this.dataSource);
    let committed = false;
    try {
      const outcomes = new Map<PendingCreate, Outcome>();
      const { admitted, liveTerms } = await this.admit(transaction, group, outcomes);
      const checked = await this.checkRisk(admitted, liveTerms, outcomes);
      this.waitingOn.set(group, 'budget_service');
      const granted = await this.reserve(checked, outcomes);
      this.waitingOn.set(group, 'postgres');
      if (granted.length > 0) {
        const commands = granted.map(({ create }) =>
          startCommandOf(
            this.config.settings.natsPrefix,
            create.trade.id,
            create.trade.userId,
            create.correlationId,
          ),
        );
        await transaction.insertAndCommit(
          granted.map(({ create, budget }) => newTradeRow(create.trade, budget)),
          commands,
        );
        committed = true;
        granted.forEach(({ create, budget }, i) =>
          outcomes.set(create, {
            answer: {
              kind: 'created',
              tradeId: create.trade.id,
              rateBudget: budget.rateBudget,
              hedgeRateBudget: budget.hedgeRateBudget,
              startCommand: commands[i]!,
            },
          }),
        );
      }
      return group.map((create) => outcomes.get(create)!);
    } finally {
      // A group with nothing to insert (replays, refusals) is rolled back: its locks go.
      await transaction.close(!committed);
      this.waitingOn.delete(group);
    }
  }

  /**
   * Rules 1 and 6 under each create's cap lock, taken in key order; returns
   * the creates that pass, and the live trades of each user whose limits count them.
   */
  private async admit(
    transaction: CreateTradeTransaction,
    group: PendingCreate[],
    outcomes: Map<PendingCreate, Outcome>,
  ): Promise<{ admitted: PendingCreate[]; liveTerms: Map<string, LiveTermsRow[]> }> {
    const ordered = [...group].sort((a, b) => compareKeys(capLockOf(a.trade), capLockOf(b.trade)));
    // A group waits no longer than its bound on a lock held elsewhere: it fails and its
    // creates run alone, so one contended wallet holds up only its own create.
    const { admissions, liveTerms } = await transaction.admit(
      ordered.map((create) => admitRequestOf(create.trade)),
      group.length > 1 ? this.config.settings.createGroupLockWaitMs : undefined,
      [
        ...new Set(
          group.filter((create) => create.risk?.countsLiveTrades).map(({ trade }) => trade.userId),
        ),
      ],
    );
    const admitted = ordered.filter((create, i) => {
      const admission = admissions[i]!;
      if (admission.replayed) {
        outcomes.set(create, { answer: { kind: 'replayed' } });
        return false;
      }
      try {
        const { legs } = create.trade;
        assertCredentialsLinked(admission.linked, [legs.long, legs.short]);
        assertUnderMakerCap(admission.live, legs.maker, create.makerCap);
        return true;
      } catch (refusal) {
        outcomes.set(create, { error: refusal });
        return false;
      }
    });
    return { admitted, liveTerms };
  }

  /** The risk limits of each admitted create that has them; a create that would break one drops out. */
  private async checkRisk(
    admitted: PendingCreate[],
    liveTerms: Map<string, LiveTermsRow[]>,
    outcomes: Map<PendingCreate, Outcome>,
  ): Promise<PendingCreate[]> {
    const refusals = await Promise.all(
      admitted.map(({ risk, trade }) =>
        risk ? this.risk.refusalOf(trade.request, risk, liveTerms.get(trade.userId)) : null,
      ),
    );
    return admitted.filter((create, i) => {
      if (refusals[i]) {
        outcomes.set(create, { error: refusals[i] });
      }
      return !refusals[i];
    });
  }

  /**
   * Rule 7: every admitted create's reservation in one request, waited for
   * no longer than the earliest create has left; a refused one drops out.
   */
  private async reserve(
    admitted: PendingCreate[],
    outcomes: Map<PendingCreate, Outcome>,
  ): Promise<Array<{ create: PendingCreate; budget: GrantedBudgets }>> {
    if (admitted.length === 0) {
      return [];
    }
    const leftMs =
      Math.min(...admitted.map((create) => create.deadlineMs)) -
      performance.now() -
      COMMIT_ALLOWANCE_MS;
    if (leftMs < MIN_BUDGET_WAIT_MS) {
      admitted.forEach((create) => outcomes.set(create, { error: pastDeadline('postgres') }));
      return [];
    }
    const requests = admitted.map(({ trade: { id, legs }, correlationId }) => ({
      tradeId: id,
      maker: { venue: legs.maker.exchange, wallet: legs.maker.wallet },
      hedge: { venue: legs.hedge.exchange, wallet: legs.hedge.wallet },
      correlationId,
    }));
    let answers: Array<GrantedBudgets | Error>;
    try {
      answers = await this.budgets.reserveBatch(requests, Math.floor(leftMs));
    } catch (error) {
      // No answer for the batch: every create of it fails so (the client gave each back).
      answers = admitted.map(() => error as Error);
    }
    return admitted.flatMap((create, i) => {
      const answer = answers[i]!;
      if (answer instanceof Error) {
        outcomes.set(create, { error: answer });
        return [];
      }
      create.reserved = true;
      return [{ create, budget: answer }];
    });
  }
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Rule 1. The wallet rows stay share-locked until commit, so an unlink cannot race the create. */
function assertCredentialsLinked(
  linked: Set<string>,
  legs: Array<{ exchange: string; wallet: string }>,
): void {
  const missing = legs.filter((leg) => !linked.has(`${leg.exchange} ${leg.wallet}`));
  if (missing.length > 0) {
    throw new AppError(
      'credentials_not_linked',
      `no active credentials linked for ${missing.map((leg) => `${leg.wallet} on ${leg.exchange}`).join(' and ')}`,
    );
  }
}

/** Rule 6, counted under the advisory lock taken for this (wallet, cap group). */
function assertUnderMakerCap(
  live: number,
  maker: { exchange: string; wallet: string },
  cap: number,
): void {
  if (live >= cap) {
    throw new AppError(
      'maker_cap_exceeded',
      `max ${cap} concurrent maker trades on ${maker.exchange} per wallet: wallet ${maker.wallet} already has ${live} active`,
      { details: { exchange: maker.exchange, cap, active: live } },
    );
  }
}
