import { Module, OnApplicationShutdown } from '@nestjs/common';
import { activeTracing } from './tracing-state';

/**
 * Exports the spans still buffered when the app or worker shuts down (the batch processor would
 * otherwise lose up to its last five seconds). Does nothing while tracing is off.
 */
@Module({})
export class TracingModule implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    await activeTracing()?.flush().catch(() => undefined);
  }
}
