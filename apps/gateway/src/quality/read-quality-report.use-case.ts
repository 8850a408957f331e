import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TradeEventRepository } from '@sts/persistence';
import { AppError } from '@sts/platform';
import { qualityReport, type QualityGroupBy, type QualityGroupView } from './quality-report';
import type { QualityQuery } from './quality.query';

const DAY_MS = 86_400_000;
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

/**
 * [from, to) in epoch ms: `to` defaults to now, `from` to DEFAULT_QUALITY_DAYS
 * before `to`; a window that is empty, reversed or wider than MAX_QUALITY_DAYS
 * is refused (400).
 */
export function qualityWindow(
  query: Pick<QualityQuery, 'from' | 'to'>,
  nowMs: number,
): { fromMs: number; toMs: number } {
  const toMs = query.to === undefined ? nowMs : Date.parse(query.to);
  const fromMs =
    query.from === undefined ? toMs - DEFAULT_QUALITY_DAYS * DAY_MS : Date.parse(query.from);
  if (Number.isNaN(fromMs) || Number.isNaN(toMs)) {
    throw new AppError('invalid_request', 'from and to must be ISO 8601 date-times');
  }
  if (fromMs >= toMs) {
    throw new AppError(
      'invalid_request',
      `from (${new Date(fromMs).toISOString()}) must be before to (${new Date(toMs).toISOString()})`,
    );
  }
  if (toMs - fromMs > MAX_QUALITY_DAYS * DAY_MS) {
    throw new AppError(
      'invalid_request',
      `the window from ${new Date(fromMs).toISOString()} to ${new Date(toMs).toISOString()} is wider than ${MAX_QUALITY_DAYS} days`,
    );
  }
  return { fromMs, toMs };
}
