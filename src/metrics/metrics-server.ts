import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { METRICS_REGISTRY } from './metrics-registry';

export const METRICS_PATH = '/metrics';

/**
 * `GET /metrics` in Prometheus text format, on its own port (METRICS_PORT): apart from the API, so
 * it needs no token and can be left off the public network. It answers nothing else. A port that is
 * taken fails start-up, like the API's own.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(MetricsServer.name);
  private readonly server: Server;

  constructor(
    @Inject(METRICS_REGISTRY) private readonly registry: Registry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.server = createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== METRICS_PATH) {
        res.writeHead(404).end();
        return;
      }
      this.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': this.registry.contentType }).end(text),
        () => res.writeHead(500).end(),
      );
    });
  }

  /** The port it listens on (METRICS_PORT, or the one picked for `0`). */
  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  async onApplicationBootstrap(): Promise<void> {
    const { host, port } = this.config.metrics;
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.logger.log({ port: this.port, path: METRICS_PATH }, `Metrics on port ${this.port}`);
  }

  async onModuleDestroy(): Promise<void> {
    if (!this.server.listening) return;
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
