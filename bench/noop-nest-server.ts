import 'reflect-metadata';
import {
  CanActivate,
  Controller,
  createParamDecorator,
  ExecutionContext,
  Get,
  INestApplication,
  Injectable,
  MiddlewareConsumer,
  Module,
  NestModule,
  Param,
  ParseUUIDPipe,
  Query,
  UseGuards,
  UsePipes,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createValidationPipe } from '../src/common/http/validation.pipe';
import { LabsQueryDto } from '../src/tools/dto/labs-query.dto';

/**
 * A Nest route that does nothing (`GET /noop` answers `{"ok":true}`): no middleware, guard, pipe,
 * filter, logger or database. What the framework costs on its own, on Fastify (Vigil's platform) or
 * on Express (`NOOP_PLATFORM=express`, needs `@nestjs/platform-express`, a development dependency
 * kept for this comparison only: the process exits 3 saying so when a platform cannot be loaded).
 * Run by `npm run bench` (PORT, HOST).
 */

/**
 * `GET /route/:id`, shaped like a tool route and still doing nothing: what the framework costs for
 * the parts of it a tool route uses. A middleware (Vigil's request logger and rate limit are Nest
 * middleware, which Fastify runs through middie), an asynchronous guard (Vigil's sign-in), a
 * parameter decorator reading what the guard left (Vigil's `@RestAccess`), Vigil's own validation
 * pipe on the labs tool's query DTO, and a UUID path pipe. No token, database, projection or audit.
 */
@Injectable()
class AdmitEveryone implements CanActivate {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<{ caller?: string }>();
    request.caller = await Promise.resolve('bench');
    return true;
  }
}

const Caller = createParamDecorator((_data: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<{ caller?: string }>().caller);

@Controller()
class NoopController {
  @Get('noop')
  noop(): { ok: boolean } {
    return { ok: true };
  }

  // Bound to this route only, so `/noop` stays bare; Vigil binds its guard and pipe globally, at the same cost per route.
  @Get('route/:id')
  @UseGuards(AdmitEveryone)
  @UsePipes(createValidationPipe())
  route(@Caller() caller: string, @Param('id', new ParseUUIDPipe({ version: '4' })) id: string, @Query() query: LabsQueryDto): { ok: boolean } {
    return { ok: Boolean(caller && id && query) };
  }

  @Get('health')
  health(): string {
    return 'ok';
  }
}

@Module({ controllers: [NoopController], providers: [AdmitEveryone] })
class NoopModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply((_req: unknown, _res: unknown, next: () => void) => next()).forRoutes('route');
  }
}

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
