import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TradeEventRepository } from '@sts/persistence';
import { qualityReport, type QualityGroupBy, type QualityGroupView } from './quality-report';
import type { QualityQuery } from './quality.query';
import { reportWindow } from '../validation/report-window';

/** The window when `from` is not given: this many days before `to`. */
export const DEFAULT_QUALITY_DAYS = 7;
/** The widest window one request may read. */
export const MAX_QUALITY_DAYS = 90;

/** GET /api/v1/quality. */
export interface QualityReportView {
  from: string;
  to: string;
  group_by: QualityGroupBy;
  groups: QualityGroupView[];
}

/**
 * The caller's execution quality over a window of their maker fills, grouped
 * by venue, market or side (issue 60); only the caller's trades are read.
 */
@Injectable()
export class ReadQualityReportUseCase {
  private readonly events: TradeEventRepository;

  constructor(dataSource: DataSource) {
    this.events = new TradeEventRepository(dataSource.manager);
  }

  async execute(userId: string, query: QualityQuery, now = new Date()): Promise<QualityReportView> {
    const { fromMs, toMs } = qualityWindow(query, now.getTime());
    const groupBy = query.group_by ?? 'venue';
    const logs = await this.events.qualityLogsOf(userId, fromMs, toMs);
    return {
      from: new Date(fromMs).toISOString(),
      to: new Date(toMs).toISOString(),
      group_by: groupBy,
      groups: qualityReport(logs, { fromMs, toMs }, groupBy),
    };
  }
}

/** The quality report's window (reportWindow): DEFAULT_QUALITY_DAYS by default, MAX_QUALITY_DAYS at most. */
export function qualityWindow(
  query: Pick<QualityQuery, 'from' | 'to'>,
  nowMs: number,
): { fromMs: number; toMs: number } {
  return reportWindow(query, nowMs, {
    defaultDays: DEFAULT_QUALITY_DAYS,
    maxDays: MAX_QUALITY_DAYS,
  });
}
