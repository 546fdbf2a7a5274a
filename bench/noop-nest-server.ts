import 'reflect-metadata';
import { Controller, Get, INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

/**
 * A Nest route that does nothing (`GET /noop` answers `{"ok":true}`): no middleware, guard, pipe,
 * filter, logger or database. What the framework costs on its own, on Fastify (Vigil's platform) or
 * on Express (`NOOP_PLATFORM=express`, needs `@nestjs/platform-express`, a development dependency
 * kept for this comparison only: the process exits 3 saying so when a platform cannot be loaded).
 * Run by `npm run bench` (PORT, HOST).
 */

@Controller()
class NoopController {
  @Get('noop')
  noop(): { ok: boolean } {
    return { ok: true };
  }

  @Get('health')
  health(): string {
    return 'ok';
  }
}

@Module({ controllers: [NoopController] })
class NoopModule {}

/** Exit code of a platform that is not installed: the suite reports the target as skipped. */
export const PLATFORM_MISSING = 3;

const ADAPTERS: Record<string, { name: string; adapter: string }> = {
  fastify: { name: '@nestjs/platform-fastify', adapter: 'FastifyAdapter' },
  express: { name: '@nestjs/platform-express', adapter: 'ExpressAdapter' },
};

async function create(platform: string): Promise<INestApplication> {
  const { name, adapter: exported } = ADAPTERS[platform] ?? ADAPTERS.fastify;
  let adapter: unknown;
  try {
    // A name in a variable: the Express platform is optional, so the compiler must not resolve it.
    const Adapter = ((await import(name)) as Record<string, new () => unknown>)[exported];
    adapter = new Adapter();
  } catch {
    process.stderr.write(`${name} is not installed\n`);
    process.exit(PLATFORM_MISSING);
  }
  return NestFactory.create(NoopModule, adapter as never, { logger: false });
}

async function start(): Promise<void> {
  const app = await create(process.env.NOOP_PLATFORM ?? 'fastify');
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
}

void start();
