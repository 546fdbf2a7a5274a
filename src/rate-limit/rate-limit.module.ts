import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { RateLimitMiddleware } from './rate-limit.middleware';
import { RateLimitService } from './rate-limit.service';

/** Request limits on every route (see RateLimitMiddleware); needs the global config, Redis and auth modules. */
@Module({ providers: [RateLimitService, RateLimitMiddleware] })
export class RateLimitModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RateLimitMiddleware).forRoutes('*');
  }
}
