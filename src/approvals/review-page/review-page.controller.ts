import { applyDecorators, Controller, Get, Header, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Public } from '../../auth/roles.decorator';

/**
 * Only what this page's own files need: scripts, styles and API calls from this origin, nothing
 * inline (so injected markup cannot run), no framing, no form posts anywhere (the token form must
 * never be submitted, which would put the token in a URL if the script failed to load).
 */
export const REVIEW_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PageFile = (contentType: string) =>
  applyDecorators(
    Header('Content-Type', contentType),
    Header('Content-Security-Policy', REVIEW_PAGE_CSP),
    Header('X-Content-Type-Options', 'nosniff'),
    Header('Referrer-Policy', 'no-referrer'),
    Header('X-Frame-Options', 'DENY'),
    Header('Cross-Origin-Opener-Policy', 'same-origin'),
    // Revalidated every time (Express answers 304 to a matching If-None-Match): a deployed fix reaches reviewers at once.
    Header('Cache-Control', 'no-cache'),
  );

/** A page file and its ETag, computed once (the service computes none per response). */
interface PageFileContent {
  text: string;
  etag: string;
}

/** Read once at start-up, beside this file in src/ (tests) and in dist/ (nest-cli copies them as assets). */
function readPageFile(name: string): PageFileContent {
  try {
    const text = readFileSync(join(__dirname, name), 'utf8');
    return { text, etag: `"${createHash('sha256').update(text).digest('base64url')}"` };
  } catch {
    // A missing asset is a build fault: refuse to start rather than serve a broken page.
    throw new Error(`The review page file ${name} is missing beside ${__dirname}: check nest-cli.json "assets".`);
  }
}

/**
 * The reviewers' page: static HTML, one script module and one stylesheet. Public, because it holds
 * no data: everything it shows comes from the API with the reviewer's own token. Not an API
 * operation, so not in the OpenAPI document (the route matrix lists it apart).
 */
@ApiExcludeController()
@Public()
@Controller('review')
export class ReviewPageController {
  private readonly html = readPageFile('review.html');
  private readonly script = readPageFile('review.js');
  private readonly styles = readPageFile('review.css');

  @Get()
  @PageFile('text/html; charset=utf-8')
  page(@Req() request: Request, @Res({ passthrough: true }) response: Response): string {
    return served(this.html, request, response);
  }

  @Get('review.js')
  @PageFile('text/javascript; charset=utf-8')
  pageScript(@Req() request: Request, @Res({ passthrough: true }) response: Response): string {
    return served(this.script, request, response);
  }

  @Get('review.css')
  @PageFile('text/css; charset=utf-8')
  pageStyles(@Req() request: Request, @Res({ passthrough: true }) response: Response): string {
    return served(this.styles, request, response);
  }
}

/**
 * The file's text with its ETag, or 304 without a body when the request names that ETag in
 * If-None-Match (the service answers nothing else conditionally: see `http-edges.ts`).
 */
function served(file: PageFileContent, request: Request, response: Response): string {
  response.setHeader('ETag', file.etag);
  const named = (request.headers['if-none-match'] ?? '').split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (!named.includes(file.etag)) return file.text;
  response.status(304);
  return '';
}
