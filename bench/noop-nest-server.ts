import 'reflect-metadata';
import { Controller, Get, INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

/**
 * A Nest route that does nothing (`GET /noop` answers `{"ok":true}`): no middleware, guard, pipe,
 * filter, logger or database. What the framework costs on its own, on Express (Vigil's platform) or
 * on Fastify (`NOOP_PLATFORM=fastify`, needs `@nestjs/platform-fastify`, which Vigil does not depend
 * on: the process exits 3 saying so when it cannot be loaded). Run by `npm run bench` (PORT, HOST).
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

async function create(platform: string): Promise<INestApplication> {
  if (platform !== 'fastify') return NestFactory.create(NoopModule, { logger: false });
  // A name in a variable: the package is optional, so the compiler must not resolve it.
  const name = '@nestjs/platform-fastify';
  let adapter: unknown;
  try {
    const { FastifyAdapter } = (await import(name)) as { FastifyAdapter: new () => unknown };
    adapter = new FastifyAdapter();
  } catch {
    process.stderr.write('@nestjs/platform-fastify is not installed\n');
    process.exit(PLATFORM_MISSING);
  }
  return NestFactory.create(NoopModule, adapter as never, { logger: false });
}

async function start(): Promise<void> {
  const app = await create(process.env.NOOP_PLATFORM ?? 'express');
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
}

void start();
