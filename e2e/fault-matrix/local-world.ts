import { Fleet } from './fleet';
import { PrivateServices } from './private-services';
import type { MatrixWorld, ServiceLog } from './world';

/** The fault matrix's world: the fleet and its private Postgres, NATS and Redis on this host. */
export class LocalWorld implements MatrixWorld {
  readonly services: PrivateServices;
  readonly fleet: Fleet;

  constructor(logDir: string, seed: number) {
    this.services = new PrivateServices(logDir);
    this.fleet = new Fleet(this.services, logDir, seed);
  }

  get databaseUrl(): string {
    return this.services.databaseUrl;
  }

  get gatewayUrl(): string {
    return this.fleet.gatewayUrl;
  }

  get notifierUrl(): string {
    return this.fleet.notifierUrl;
  }

  get notifierUrls(): string[] {
    return [this.fleet.notifierUrl];
  }

  get simUrl(): string {
    return this.fleet.simUrl;
  }

  get sim() {
    return this.fleet.sim;
  }

  get operator() {
    return this.fleet.operator;
  }

  logs(): ServiceLog[] {
    return this.fleet.processes;
  }

  async start(): Promise<void> {
    await this.services.start();
    await this.fleet.start(2);
  }

  async stop(): Promise<void> {
    try {
      await this.fleet.stop();
    } finally {
      await this.services.stop();
    }
  }
}
