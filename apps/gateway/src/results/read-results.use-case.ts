import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { FundingLedgerRepository, TradeEventRepository } from '@sts/persistence';
import { reportWindow } from '../validation/report-window';
import { FundingCollector, type FundingUnread } from './funding-collector';
import { resultFills } from './result-fills';
import {
  resultsReport,
  type ResultGroupBy,
  type ResultRowView,
  type ResultSumsView,
} from './results-report';
import type { ResultsQuery } from './results.query';

/** The window when `from` is not given: this many days before `to`. */
export const DEFAULT_RESULTS_DAYS = 30;
/** The widest window one request may read. */
export const MAX_RESULTS_DAYS = 366;

/** GET /api/v1/results. */
export interface ResultsView {
  from: string;
  to: string;
  group_by: ResultGroupBy;
  currency: 'USD';
  rows: ResultRowView[];
  totals: ResultSumsView;
  /** Accounts whose funding history could not be read now: what was read before still counts. */
  funding_unread: FundingUnread[];
  /** Fills whose fee was not in a USD asset (or not reported), left out of `fees`. */
  unpriced_fees: number;
}

/**
 * The caller's results over a window (issue 58): their trades' fills and
 * the funding their positions earned, brought up to date from the venues
 * first (FundingCollector), in USD. Only the caller's trades are read.
 */
@Injectable()
export class ReadResultsUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly funding: FundingCollector,
  ) {}

  async execute(userId: string, query: ResultsQuery, now = new Date()): Promise<ResultsView> {
    const { fromMs, toMs } = reportWindow(query, now.getTime(), {
      defaultDays: DEFAULT_RESULTS_DAYS,
      maxDays: MAX_RESULTS_DAYS,
    });
    const groupBy = query.group_by ?? 'day';
    const unread = await this.funding.collect(userId);
    const manager = this.dataSource.manager;
    const [logs, shares] = await Promise.all([
      new TradeEventRepository(manager).fillLogsIn(userId, fromMs, toMs),
      new FundingLedgerRepository(manager).tradeFundingIn(userId, fromMs, toMs),
    ]);
    const report = resultsReport(logs.flatMap(resultFills), shares, { fromMs, toMs }, groupBy);
    return {
      from: new Date(fromMs).toISOString(),
      to: new Date(toMs).toISOString(),
      group_by: groupBy,
      currency: 'USD',
      rows: report.rows,
      totals: report.totals,
      funding_unread: unread,
      unpriced_fees: report.unpricedFees,
    };
  }
}
