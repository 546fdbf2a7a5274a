import { request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { summarize, Summary } from './stats';

/**
 * The approval path at a steady rate: a clinician files a proposal → it reaches a reviewer's live
 * queue (the server-sent event stream the review page reads) → the reviewer reads it (with its
 * evidence) and approves it → the worker executes it (the event that says `executed`). A new
 * proposal starts every 1/rate seconds whether or not earlier ones finished (an open loop).
 */

export interface ApprovalPathOptions {
  base: string;
  patientId: string;
  citations: string[];
  proposerToken: string;
  reviewerToken: string;
  perSecond: number;
  seconds: number;
  stop: () => boolean;
}

export interface ApprovalPathResult {
  started: number;
  executed: number;
  failed: string[];
  stages: { name: string; summary: Summary; max: number }[];
}

interface StreamEvent {
  at: number;
  status: string;
}

const STAGE_TIMEOUT_MS = 30_000;

export async function measureApprovalPath(options: ApprovalPathOptions): Promise<ApprovalPathResult> {
  const stream = await openStream(options.base, options.reviewerToken);
  const samples = { create: [] as number[], visible: [] as number[], read: [] as number[], approve: [] as number[], executed: [] as number[], total: [] as number[] };
  const failed: string[] = [];
  let executed = 0;
  const dueDate = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);

  const one = async (index: number) => {
    const t0 = performance.now();
    const created = await call(options.base, 'POST', `/patients/${options.patientId}/proposals`, options.proposerToken, {
      kind: 'schedule_outreach',
      content: { channel: 'phone', dueDate, reason: `Benchmark outreach ${index}` },
      rationale: 'Benchmark of the approval path: last HbA1c needs a recheck.',
      citations: options.citations,
    });
    const t1 = performance.now();
    if (created.status !== 201) throw new Error(`create answered ${created.status}`);
    const id = (JSON.parse(created.body) as { id: string }).id;
    const visible = await stream.waitFor(id, (event) => event.status === 'pending');
    const read = await call(options.base, 'GET', `/proposals/${id}`, options.reviewerToken);
    const t2 = performance.now();
    if (read.status !== 200) throw new Error(`read answered ${read.status}`);
    const approved = await call(options.base, 'POST', `/proposals/${id}/approve`, options.reviewerToken, { version: 1 });
    const t3 = performance.now();
    if (approved.status !== 200) throw new Error(`approve answered ${approved.status}`);
    const done = await stream.waitFor(id, (event) => ['executed', 'failed'].includes(event.status));
    if (done.status !== 'executed') throw new Error(`ended ${done.status}`);
    executed += 1;
    samples.create.push(t1 - t0);
    samples.visible.push(visible.at - t1);
    samples.read.push(t2 - Math.max(visible.at, t1));
    samples.approve.push(t3 - t2);
    samples.executed.push(done.at - t3);
    samples.total.push(done.at - t0);
  };

  const flows: Promise<void>[] = [];
  const total = options.perSecond * options.seconds;
  const start = performance.now();
  for (let i = 0; i < total && !options.stop(); i += 1) {
    const due = start + (i * 1000) / options.perSecond;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    flows.push(one(i).catch((error: unknown) => void failed.push(error instanceof Error ? error.message : String(error))));
  }
  await Promise.all(flows);
  stream.close();
  const stage = (name: string, values: number[]) => ({ name, summary: summarize(values), max: Math.max(...values) });
  return {
    started: flows.length,
    executed,
    failed,
    stages: [
      stage('1. propose (POST, until the 201)', samples.create),
      stage('2. visible in the reviewer’s live queue (201 → SSE event)', samples.visible),
      stage('3. reviewer reads it with its evidence (GET)', samples.read),
      stage('4. approve (POST, until the 200)', samples.approve),
      stage('5. executed (200 → SSE event `executed`)', samples.executed),
      stage('End to end (propose sent → executed event)', samples.total),
    ],
  };
}

function call(base: string, method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: string }> {
  return fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  }).then(async (response) => ({ status: response.status, body: await response.text() }));
}

/** The reviewer's event stream, every event kept with its arrival time. */
async function openStream(base: string, token: string) {
  const events = new Map<string, StreamEvent[]>();
  const waiters = new Set<() => void>();
  const request = httpRequest(`${base}/proposals/events`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` } });
  await new Promise<void>((resolve, reject) => {
    request.on('response', (response) => {
      if (response.statusCode !== 200) return reject(new Error(`event stream answered ${response.statusCode}`));
      response.setEncoding('utf8');
      response.on('error', () => undefined);
      let pending = '';
      response.on('data', (chunk: string) => {
        const at = performance.now();
        pending += chunk;
        let end: number;
        while ((end = pending.indexOf('\n\n')) >= 0) {
          const data = pending
            .slice(0, end)
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trim())
            .join('\n');
          pending = pending.slice(end + 2);
          if (!data) continue;
          const change = JSON.parse(data) as { id: string; status: string };
          events.set(change.id, [...(events.get(change.id) ?? []), { at, status: change.status }]);
        }
        waiters.forEach((wake) => wake());
      });
      resolve();
    });
    request.on('error', reject);
    request.end();
  });
  return {
    waitFor(id: string, matches: (event: StreamEvent) => boolean): Promise<StreamEvent> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const event = events.get(id)?.find(matches);
          if (!event) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(event);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching event for a proposal within ${STAGE_TIMEOUT_MS / 1000} s`));
        }, STAGE_TIMEOUT_MS);
        waiters.add(check);
        check();
      });
    },
    close: () => request.destroy(),
  };
}
