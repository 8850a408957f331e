import 'reflect-metadata';
import { Expose, Type } from 'class-transformer';
import { IsIn, IsInt, IsNumber, IsOptional, IsString, Max, Min } from 'class-validator';
import {
  createLogger,
  LOG_LEVELS,
  loadConfig,
  runService,
  startOpsServer,
  type LogLevel,
} from '@sts/platform';
import { parseTakerFlowSetting } from './control/taker-flows';
import { parseProfileSetting } from './dialects/dialect-profiles';
import { VenueSimMetrics } from './sim-metrics';
import { startVenueSim } from './sim-server';

/** The simulator's settings (documented in apps/venue-sim/README.md). */
class VenueSimSettings {
  @Expose({ name: 'VENUE_SIM_HOST' })
  @IsString()
  host = '127.0.0.1';

  @Expose({ name: 'VENUE_SIM_PORT' })
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  port = 7100;

  @Expose({ name: 'VENUE_SIM_SEED' })
  @Type(() => Number)
  @IsInt()
  @Min(0)
  seed = 1;

  @Expose({ name: 'VENUE_SIM_TICK_MS' })
  @Type(() => Number)
  @IsInt()
  @Min(0)
  tickMs = 100;

  /** Comma-separated venue ids (`id` or `id=template`); default: the five venues. */
  @Expose({ name: 'VENUE_SIM_VENUES' })
  @IsOptional()
  @IsString()
  venues?: string;

  @Expose({ name: 'VENUE_SIM_VOL_SCALE' })
  @Type(() => Number)
  @IsNumber()
  @Min(0)
  volScale = 1;

  /** `false` leaves account registration to the control endpoint. */
  @Expose({ name: 'VENUE_SIM_SELF_REGISTRATION' })
  @IsIn(['true', 'false'])
  selfRegistration: 'true' | 'false' = 'true';

  /** Readings the dialects play where the venues are silent: `<venue>.<reading>=<value>,…`. */
  @Expose({ name: 'VENUE_SIM_DIALECT_PROFILE' })
  @IsOptional()
  @IsString()
  dialectProfile?: string;

  /** Who each venue's takers are: `<venue>.informed_taker_share=<0..1>,<venue>.informed_horizon_ms=<ms>,…`. */
  @Expose({ name: 'VENUE_SIM_FLOW' })
  @IsOptional()
  @IsString()
  flow?: string;

  @Expose({ name: 'VENUE_SIM_CONTROL_TOKEN' })
  @IsOptional()
  @IsString()
  controlToken?: string;

  /** Port of the simulator's `/metrics`, `/livez` and `/readyz` listener (0: any free port). */
  @Expose({ name: 'VENUE_SIM_METRICS_PORT' })
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(65535)
  metricsPort = 9469;

  @Expose({ name: 'LOG_LEVEL' })
  @IsIn(LOG_LEVELS)
  logLevel: LogLevel = 'info';
}

runService('venue-sim', async () => {
  const settings = loadConfig(VenueSimSettings);
  const logger = createLogger('venue-sim', settings.logLevel);
  const metrics = new VenueSimMetrics();
  const sim = await startVenueSim({
    host: settings.host,
    port: settings.port,
    seed: settings.seed,
    tickMs: settings.tickMs,
    venues: settings.venues?.split(',').filter((entry) => entry.trim() !== ''),
    volScale: settings.volScale,
    selfRegistration: settings.selfRegistration === 'true',
    controlToken: settings.controlToken,
    dialectProfiles: parseProfileSetting(settings.dialectProfile),
    takerFlows: parseTakerFlowSetting(settings.flow),
    logger,
    onAnswered: (path, status) => metrics.recordAnswered(path, status),
  });
  metrics.knowVenues(sim.world().venues.keys());
  const ops = await startOpsServer({
    host: settings.host,
    port: settings.metricsPort,
    registry: metrics.registry,
    readiness: () => ({ ready: true, checks: { venue_sim: 'up' } }),
  });
  logger.info(
    {
      url: sim.url,
      seed: settings.seed,
      tick_ms: settings.tickMs,
      venues: [...sim.world().venues.keys()],
    },
    'venue simulator listening',
  );
  return {
    close: async () => {
      await sim.stop();
      await ops.close();
    },
  };
});
