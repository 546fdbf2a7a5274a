import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger as PinoLogger } from 'pino';
import { AppModule, AppModuleOptions } from './app.module';
import { addEarlyRequestHook, createHttpAdapter, installHttpEdges } from './common/http/http-edges';
import { asContract } from './common/http/openapi-contract';
import { ProblemDetailsFilter } from './common/http/problem-details.filter';
import { RestRefusalAudit } from './access/rest-access';
import { EdgeRefusalGuard } from './common/http/request-body';
import { createValidationPipe } from './common/http/validation.pipe';
import { NestAppLogger, NestStartupLogger } from './common/logging/nest-logger';
import { observeHttpRequests } from './metrics/metrics.module';
import { declareRateLimits } from './rate-limit/rate-limit.openapi';
import { nameRequestSpanByRoute } from './tracing/request-span';

export const DOCS_PATH = 'docs';

/**
 * Builds the HTTP application exactly as it runs in production; the e2e tests use this too.
 * `abortOnError: false` makes a start-up fault throw instead of aborting the process, for callers
 * (the benchmarks) that must still clean up after it.
 */
export async function createApp(options: AppModuleOptions, { abortOnError = true }: { abortOnError?: boolean } = {}): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(options), createHttpAdapter(), {
    bufferLogs: true,
    abortOnError,
    bodyParser: false,
    logger: new NestStartupLogger(options.logger),
  });
  // Before every other hook, so requests refused at the edge are timed too.
  observeHttpRequests(app, options.config);
  addEarlyRequestHook(app, (request) => nameRequestSpanByRoute(request.routeOptions.url));
  configureHttp(app, options.logger);
  app.enableShutdownHooks();
  setUpOpenApi(app);
  return app;
}

/**
 * `init()`, then Fastify's own start (its plugins and routes settle in `ready()`, which `listen()`
 * does): for callers that serve the app's HTTP server themselves (tests, benchmarks).
 */
export async function initApp(app: NestFastifyApplication): Promise<NestFastifyApplication> {
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

/** The HTTP plumbing every Vigil app shares: hardened edges, PHI-safe logger and request log, problem responses, closed DTOs. */
export function configureHttp(app: NestFastifyApplication, logger: PinoLogger): void {
  installHttpEdges(app, logger);
  app.useLogger(new NestAppLogger(logger));
  // Nest flushes its start-up buffer on listen(); flush now so an app that is only init()ed (as in
  // tests) stops buffering too, instead of holding every static Logger call back.
  app.flushLogs();
  app.useGlobalFilters(new ProblemDetailsFilter(refusalAuditOf(app)));
  app.useGlobalPipes(createValidationPipe());
  // After every module's APP_GUARD (registered when the app was created): authentication first.
  // No global interceptor: Nest would run every request of every route through rxjs for it.
  app.useGlobalGuards(new EdgeRefusalGuard());
}

/** The access module's audit of refused requests, in an app that has it (every Vigil app; not a bare test app). */
function refusalAuditOf(app: NestFastifyApplication): RestRefusalAudit | undefined {
  try {
    return app.get(RestRefusalAudit, { strict: false });
  } catch {
    return undefined;
  }
}

function setUpOpenApi(app: NestFastifyApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Vigil')
    .setDescription(
      'Evidence about one patient at a time, from five typed read-only cohort tools; every write waits for a human approval. ' +
        'Errors are RFC 9457 problem details (`application/problem+json`) carrying a correlation id. ' +
          'A method a path does not have answers 405 with `Allow`; a request Node cannot parse as HTTP/1.1 answers 400, 431 or 501, and one not received in full in time 408. ' +
          'A body sent with GET is never read.',
    )
    .setVersion('0.1.0')
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description:
        'A JWS access token from the identity provider (AUTH_JWKS_URL), verified as RFC8725 recommends: asymmetric algorithms only ' +
        '(RS256, ES256, PS256, EdDSA; never `none` or HMAC), the key chosen by `kid` from the JWKS, `iss` and `aud` checked, ' +
        '`exp` required and the lifetime bounded (AUTH_MAX_TOKEN_LIFETIME_SECONDS).',
    })
    .build();
  // The contract first (problem+json errors, the edge's 400/408/413/415/431, closed request bodies), then the rate-limit headers on every response it declares.
  const document = declareRateLimits(asContract(SwaggerModule.createDocument(app, config)));
  SwaggerModule.setup(DOCS_PATH, app, document, { jsonDocumentUrl: `${DOCS_PATH}-json` });
}
