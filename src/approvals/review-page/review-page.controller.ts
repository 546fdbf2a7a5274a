import { applyDecorators, Controller, Get, Header, Inject, NotFoundException, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Public } from '../../auth/roles.decorator';
import { APP_CONFIG, AppConfig } from '../../config/app-config';

/**
 * Only what this page's own files need: scripts, styles and API calls from this origin (and, with an
 * identity provider configured, calls to the provider's origin: discovery, token, revocation),
 * nothing inline (so injected markup cannot run), no framing, no form posts anywhere (the token form
 * must never be submitted, which would put the token in a URL if the script failed to load).
 */
export function reviewPageCsp(providerOrigin?: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `connect-src 'self'${providerOrigin ? ` ${providerOrigin}` : ''}`,
    "img-src 'self'",
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The headers every page file carries; its Content-Type and CSP are set by the handler. */
const PageFile = () =>
  applyDecorators(
    Header('X-Content-Type-Options', 'nosniff'),
    Header('Referrer-Policy', 'no-referrer'),
    Header('X-Frame-Options', 'DENY'),
    Header('Cross-Origin-Opener-Policy', 'same-origin'),
    // Revalidated every time (`served` answers 304 to a matching If-None-Match): a deployed fix reaches reviewers at once.
    Header('Cache-Control', 'no-cache'),
  );

/** A page file and its ETag, computed once (the service computes none per response). */
interface PageFileContent {
  text: string;
  etag: string;
}

/** Read once at start-up, beside this file in src/ (tests) and in dist/ (nest-cli copies them as assets). */
function readPageFile(name: string, path = join(__dirname, name)): PageFileContent {
  try {
    const text = readFileSync(path, 'utf8');
    return { text, etag: `"${createHash('sha256').update(text).digest('base64url')}"` };
  } catch {
    // A missing asset is a build fault: refuse to start rather than serve a broken page.
    throw new Error(`The review page file ${name} is missing beside ${__dirname}: check nest-cli.json "assets".`);
  }
}

/**
 * The page's files besides the HTML, each served at `/review/<name>` as it is in the source tree: the
 * entry module, the modules it imports, the stylesheet. A list, not the folder: in dist/ the folder
 * also holds this controller compiled. The route matrix reads it; the controller's spec holds it to
 * the folder's files and the logger's route words (`nest-cli.json` and the bench scripts copy by pattern).
 */
export const REVIEW_PAGE_FILES = {
  'review.js': 'text/javascript; charset=utf-8',
  'api.js': 'text/javascript; charset=utf-8',
  'detail.js': 'text/javascript; charset=utf-8',
  'diff.js': 'text/javascript; charset=utf-8',
  'dom.js': 'text/javascript; charset=utf-8',
  'edit-form.js': 'text/javascript; charset=utf-8',
  'format.js': 'text/javascript; charset=utf-8',
  'history.js': 'text/javascript; charset=utf-8',
  'live.js': 'text/javascript; charset=utf-8',
  'queue.js': 'text/javascript; charset=utf-8',
  'queue-view.js': 'text/javascript; charset=utf-8',
  'schema-form.js': 'text/javascript; charset=utf-8',
  'session.js': 'text/javascript; charset=utf-8',
  'state.js': 'text/javascript; charset=utf-8',
  'versions.js': 'text/javascript; charset=utf-8',
  'oidc.js': 'text/javascript; charset=utf-8',
  'review.css': 'text/css; charset=utf-8',
} as const;

/**
 * Libraries the page imports, served at `/review/<name>` from the installed package (the lock file
 * pins the version): ES modules without dependencies, so no bundler is needed.
 */
export const REVIEW_PAGE_LIBRARIES = {
  // OpenID Connect and OAuth for the provider sign-in (oidc.js): panva's certified client.
  'oauth4webapi.js': 'oauth4webapi',
} as const;

/** Every name served at `/review/<name>`: the page's files, its libraries and its sign-in settings. */
export const REVIEW_PAGE_NAMES: readonly string[] = [...Object.keys(REVIEW_PAGE_FILES), ...Object.keys(REVIEW_PAGE_LIBRARIES), 'sign-in.json'];

/** A library's module as installed, without its source map comment (the map is not served). */
function readLibrary(name: string, packageName: string): PageFileContent {
  const file = readPageFile(name, require.resolve(packageName));
  const text = file.text.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
  return { text, etag: `"${createHash('sha256').update(text).digest('base64url')}"` };
}

/** What the page needs to offer sign-in, served as `/review/sign-in.json` (no secret: the client is public). */
export interface SignInSettings {
  /** Whether pasted development tokens are accepted (AUTH_DEV_MODE). */
  developmentTokens: boolean;
  /** The OpenID Connect client, or null when none is configured. */
  provider: { issuer: string; clientId: string; redirectUri: string | null; scope: string; resource: string | null } | null;
}

/**
 * The reviewers' page: static HTML, its script modules and one stylesheet. Public, because it holds
 * no data: everything it shows comes from the API with the reviewer's own token. Not an API
 * operation, so not in the OpenAPI document (the route matrix lists it apart).
 */
@ApiExcludeController()
@Public()
@Controller('review')
export class ReviewPageController {
  private readonly html = readPageFile('review.html');
  private readonly files = new Map<string, PageFileContent & { type: string }>([
    ...Object.entries(REVIEW_PAGE_FILES).map(([name, type]) => [name, { ...readPageFile(name), type }] as const),
    ...Object.entries(REVIEW_PAGE_LIBRARIES).map(([name, packageName]) => [name, { ...readLibrary(name, packageName), type: 'text/javascript; charset=utf-8' }] as const),
  ]);
  private readonly csp: string;
  private readonly signIn: PageFileContent;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const provider = config.auth.signIn;
    this.csp = reviewPageCsp(provider && new URL(provider.issuer).origin);
    const settings: SignInSettings = {
      developmentTokens: config.auth.devMode,
      provider: provider ? { issuer: provider.issuer, clientId: provider.clientId, redirectUri: provider.redirectUri ?? null, scope: provider.scope, resource: provider.resource ?? null } : null,
    };
    const text = JSON.stringify(settings);
    this.signIn = { text, etag: `"${createHash('sha256').update(text).digest('base64url')}"` };
  }

  @Get()
  @PageFile()
  page(@Req() request: FastifyRequest, @Res({ passthrough: true }) response: FastifyReply): string {
    response.header('Content-Type', 'text/html; charset=utf-8');
    response.header('Content-Security-Policy', this.csp);
    return served(this.html, request, response);
  }

  /** How the page may sign in (declared before `:file`, which would otherwise take the name). */
  @Get('sign-in.json')
  @PageFile()
  signInSettings(@Req() request: FastifyRequest, @Res({ passthrough: true }) response: FastifyReply): string {
    response.header('Content-Type', 'application/json; charset=utf-8');
    response.header('Content-Security-Policy', this.csp);
    return served(this.signIn, request, response);
  }

  /** One of REVIEW_PAGE_FILES or REVIEW_PAGE_LIBRARIES by name (nothing else: the name is never a path on disk). */
  @Get(':file')
  @PageFile()
  pageFile(@Param('file') name: string, @Req() request: FastifyRequest, @Res({ passthrough: true }) response: FastifyReply): string {
    const file = this.files.get(name);
    if (!file) throw new NotFoundException();
    response.header('Content-Type', file.type);
    response.header('Content-Security-Policy', this.csp);
    return served(file, request, response);
  }
}

/**
 * The file's text with its ETag, or 304 without a body when the request names that ETag in
 * If-None-Match (the service answers nothing else conditionally: see `http-edges.ts`).
 */
function served(file: PageFileContent, request: FastifyRequest, response: FastifyReply): string {
  response.header('ETag', file.etag);
  const named = (request.headers['if-none-match'] ?? '').split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (!named.includes(file.etag)) return file.text;
  response.status(304);
  return '';
}
