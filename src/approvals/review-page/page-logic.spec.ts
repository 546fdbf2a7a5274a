import type { Type } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateDto } from '../../common/validation/validate-dto';
import { ProblemException } from '../../common/http/problem';
import { EditAndApproveDto } from '../dto/proposal-requests.dto';
import { PROPOSAL_CONTENT_BY_KIND } from '../dto/proposal-content.dto';
import { ProposalKind } from '../enum';

/*
 * The review page's pure modules, loaded as the browser gets them (Jest transpiles the ES modules:
 * see jest.config.js). They carry no TypeScript types, hence the `require` and the shapes below.
 */
type FieldSpec = { name: string; path: string; label: string; required: boolean; options?: string[]; minLength?: number; maxLength?: number; date?: boolean; earliest?: string; pattern?: string; example?: string };
/* eslint-disable @typescript-eslint/no-require-imports */
const form = require('./schema-form.js') as {
  contentSchemaOf: (openapi: unknown, kind: string) => unknown;
  fieldsOfSchema: (schema: unknown, prefix: string, labelOf: (name: string) => string) => FieldSpec[];
  checkFields: (fields: FieldSpec[], values: Record<string, string>, now?: Date) => Array<{ path: string; message: string }>;
  contentOf: (fields: FieldSpec[], values: Record<string, string>) => Record<string, string>;
};
const { diffVersions, versionPair } = require('./diff.js') as {
  diffVersions: (before: object | undefined, after: object, order?: string[]) => Array<{ field: string; path: string; before: unknown; after: unknown; change: string }>;
  versionPair: (versions: Array<{ version: number }>, version: number) => { current?: { version: number }; previous?: { version: number } };
};
const { historyEntries, countingApprovers, uncountedApprovals } = require('./history.js') as {
  historyEntries: (detail: object) => Array<{ at: string; text: string }>;
  countingApprovers: (detail: object) => string[];
  uncountedApprovals: (detail: object) => string[];
};
const { sortItems, queueQuery, noFilters, isNews } = require('./queue-view.js') as {
  isNews: (event: { type: string; data: object }, seen: boolean) => boolean;
  sortItems: (items: object[], sort: string) => Array<{ id: string }>;
  queueQuery: (filters: Record<string, string>, pageSize: number, cursor?: string | null) => URLSearchParams;
  noFilters: () => Record<string, string>;
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** The OpenAPI document as served (the openapi e2e test keeps this snapshot equal to it). */
const openapi = JSON.parse(readFileSync(join(__dirname, '../../../docs/openapi.json'), 'utf8'));
const NOW = new Date('2030-06-15T12:00:00Z');
const TODAY = '2030-06-15';

describe('the edit form, read from the served schema, checks what the API checks', () => {
  /** Which fields the API refuses for `content` (by path), through the same DTO the route uses. */
  const refusedByApi = async (kind: ProposalKind, content: Record<string, string>): Promise<string[]> => {
    try {
      await validateDto(PROPOSAL_CONTENT_BY_KIND[kind] as Type<object>, content, 'content');
      return [];
    } catch (error) {
      return [...new Set(((error as ProblemException).errors ?? []).map((problem) => problem.field))].sort();
    }
  };
  const fieldsOf = (kind: string) => form.fieldsOfSchema(form.contentSchemaOf(openapi, kind), 'content', (name) => name);
  /** A value each field's rules accept. */
  const valid = (field: FieldSpec) => field.options?.[0] ?? (field.date ? TODAY : field.example ?? 'x'.repeat(Math.max(field.minLength ?? 1, 3)));
  /** Values that break one rule of the field each. */
  const invalid = (field: FieldSpec): string[] => [
    ...(field.required ? [''] : []),
    ...(field.options ? ['not-an-option'] : []),
    ...(field.pattern && !field.date ? ['not a key'] : []),
    ...(field.date ? ['2030-02-30', '15/06/2030', '2030-06-14'] : []),
    ...(field.minLength && field.minLength > 1 ? ['x'.repeat(field.minLength - 1)] : []),
    ...(field.maxLength && !field.date ? ['x'.repeat(field.maxLength + 1)] : []),
  ];

  beforeAll(() => jest.useFakeTimers({ now: NOW, doNotFake: ['nextTick', 'setImmediate'] }));
  afterAll(() => jest.useRealTimers());

  it.each(Object.values(ProposalKind))('%s: a field per content property, required as the schema says', (kind) => {
    const fields = fieldsOf(kind);
    expect(fields.map((field) => field.name).sort()).toEqual(Object.keys(openapi.components.schemas[PROPOSAL_CONTENT_BY_KIND[kind].name].properties).sort());
    expect(fields.length).toBeGreaterThan(0);
  });

  it('schedule_outreach: the due date may not be in the past (the schema says so, and the form refuses it)', () => {
    const dueDate = fieldsOf(ProposalKind.ScheduleOutreach).find((field) => field.name === 'dueDate')!;
    expect(dueDate).toMatchObject({ required: true, date: true, earliest: 'today-utc' });
    const values = { 'content.dueDate': '2020-01-01' };
    expect(form.checkFields([dueDate], values, NOW)).toEqual([{ path: 'content.dueDate', message: expect.stringContaining('today (2030-06-15, UTC) or later') }]);
  });

  it.each(Object.values(ProposalKind))('%s: each broken rule is refused by the form exactly when the API refuses it', async (kind) => {
    const fields = fieldsOf(kind);
    const base = Object.fromEntries(fields.map((field) => [field.path, valid(field)]));
    expect(form.checkFields(fields, base, NOW)).toEqual([]);
    expect(await refusedByApi(kind, form.contentOf(fields, base))).toEqual([]);
    for (const field of fields) {
      for (const value of invalid(field)) {
        const values = { ...base, [field.path]: value };
        const page = [...new Set(form.checkFields(fields, values, NOW).map((problem) => problem.path))].sort();
        expect({ field: field.path, value, page }).toEqual({ field: field.path, value, page: await refusedByApi(kind, form.contentOf(fields, values)) });
      }
    }
  });

  it('the edit’s rationale and reason: lengths as EditAndApproveDto has them', async () => {
    const edit = openapi.components.schemas.EditAndApproveDto;
    const fields = form.fieldsOfSchema({ properties: { rationale: edit.properties.rationale, reason: edit.properties.reason } }, '', (name) => name);
    for (const [rationale, reason] of [['x'.repeat(9), 'ok!'], ['x'.repeat(10), 'no'], ['x'.repeat(2001), 'x'.repeat(1001)], ['x'.repeat(10), 'x'.repeat(3)]]) {
      const page = form.checkFields(fields, { rationale, reason }, NOW).map((problem) => problem.path).sort();
      let api: string[] = [];
      try {
        await validateDto(EditAndApproveDto, { version: 1, content: {}, rationale, reason });
      } catch (error) {
        api = [...new Set(((error as ProblemException).errors ?? []).map((problem) => problem.field))].sort();
      }
      expect(page).toEqual(api);
    }
  });
});

describe('the diff between two versions', () => {
  const v1 = { version: 1, content: { channel: 'phone', dueDate: '2030-07-01', reason: 'Book a recheck' }, rationale: 'Last HbA1c is old.', citations: ['obs:b', 'obs:a'] };
  const v2 = { version: 2, content: { channel: 'letter', dueDate: '2030-07-01', note: 'new' }, rationale: 'Last HbA1c is old.', citations: ['obs:a', 'obs:b'] };

  it('says of every field whether it changed, was added or removed, or stayed', () => {
    expect(diffVersions(v1, v2).map(({ field, change }) => [field, change])).toEqual([
      ['channel', 'changed'], ['dueDate', 'same'], ['note', 'added'], ['reason', 'removed'], ['rationale', 'same'], ['citations', 'same'],
    ]);
    expect(diffVersions(v1, v2)[0]).toMatchObject({ path: 'content.channel', before: 'phone', after: 'letter' });
  });

  it('lists the fields in the kind’s schema order when given it (the database keeps keys in its own order)', () => {
    expect(diffVersions(v1, v2, ['channel', 'reason', 'dueDate']).map(({ field }) => field)).toEqual(['channel', 'reason', 'dueDate', 'note', 'rationale', 'citations']);
  });

  it('pairs the version to decide with the one before it, whatever order they come in', () => {
    expect(versionPair([v2, v1], 2)).toEqual({ current: v2, previous: v1 });
    expect(versionPair([v1], 1)).toEqual({ current: v1, previous: undefined });
  });
});

describe('the history and the approval count', () => {
  const at = (second: number) => `2030-06-15T10:00:${String(second).padStart(2, '0')}.000000Z`;
  const santos = { actorId: 'santos', actorName: 'Lucía Santos, MD', actorRole: 'reviewer' };
  const diaz = { actorId: 'diaz', actorName: 'Ana Díaz, MD', actorRole: 'reviewer' };
  const detail = {
    currentVersion: 2,
    requiredApprovals: 1,
    versions: [
      { version: 1, createdBy: 'okafor', createdByName: 'Adaeze Okafor, MD', createdByRole: 'clinician', createdAt: at(0) },
      { version: 2, createdBy: 'santos', createdByName: 'Lucía Santos, MD', createdByRole: 'reviewer', createdAt: at(5) },
    ],
    // As the server lists them: one transaction's edit before its approval.
    decisions: [
      { ...diaz, version: 1, decision: 'approve', reason: null, createdAt: at(2) },
      { ...santos, version: 2, decision: 'edit', reason: 'Letter, not phone', createdAt: at(5) },
      { ...santos, version: 2, decision: 'approve', reason: null, createdAt: at(5) },
    ],
  };

  it('lists what happened in order, an edit before the editor’s approval, each explained', () => {
    expect(historyEntries(detail).map((entry) => entry.text)).toEqual([
      'Version 1 proposed by Adaeze Okafor, MD (clinician).',
      'Approved version 1 by Ana Díaz, MD (reviewer).',
      'Edited version 1 into version 2 by Lucía Santos, MD (reviewer): “Letter, not phone”',
      'Approved version 2 by Lucía Santos, MD (reviewer), who wrote it: an author’s own approval does not count.',
    ]);
  });

  it('counts no approval of version 2 yet, and says why neither on record counts', () => {
    expect(countingApprovers(detail)).toEqual([]);
    expect(uncountedApprovals(detail)).toEqual([
      'Ana Díaz, MD (reviewer) approved version 1; approvals do not carry over to version 2, which changed what is approved.',
      'Lucía Santos, MD (reviewer) wrote version 2 (an edit), so their own approval of it does not count: someone else must approve it.',
    ]);
    const approved = { ...detail, decisions: [...detail.decisions, { ...diaz, version: 2, decision: 'approve', reason: null, createdAt: at(9) }] };
    expect(countingApprovers(approved)).toEqual(['diaz']);
  });
});

describe('the queue’s order and query', () => {
  const item = (id: string, kind: string, family: string, proposer: string, careTeams: string[]) => ({
    id, kind, patient: { familyName: family, givenName: 'A', redactedFields: [] }, proposerName: proposer, proposerRole: 'clinician', careTeams,
  });
  // In the server's order (newest first).
  const items = [item('1', 'order_lab', 'Öberg', 'Zed', ['b-team']), item('2', 'add_care_note', 'adams', 'Amy', ['a-team']), item('3', 'order_lab', 'Baker', 'Amy', ['a-team'])];

  it.each([
    ['kind', ['2', '1', '3']],
    ['patient', ['2', '3', '1']],
    ['proposer', ['2', '3', '1']],
    ['careTeam', ['2', '3', '1']],
    ['newest', ['1', '2', '3']],
    ['oldest', ['1', '2', '3']],
  ])('sorted by %s: %j (ties and the server’s own sorts keep its order)', (sort, ids) => {
    expect(sortItems(items, sort).map((row) => row.id)).toEqual(ids);
  });

  it('asks the server for pending proposals with the filters set, in its order for waiting time', () => {
    const filters = { ...noFilters(), kind: 'order_lab', careTeam: 'a-team', minWaitingHours: '24', sort: 'patient' };
    expect(Object.fromEntries(queueQuery(filters, 50, 'abc'))).toEqual({ status: 'pending', limit: '50', sort: 'newest', kind: 'order_lab', careTeam: 'a-team', minWaitingHours: '24', cursor: 'abc' });
    expect(queueQuery(noFilters(), 50).get('sort')).toBe('oldest');
  });
});

describe('which live events the page announces', () => {
  const created = { type: 'proposal.created', data: { id: 'p1' } };
  const updated = { type: 'proposal.updated', data: { id: 'p1' } };

  it('a new proposal only when the queue has not shown it yet (the stream repeats the seconds before it opened); every update', () => {
    expect([isNews(created, false), isNews(created, true), isNews(updated, false), isNews(updated, true)]).toEqual([true, false, true, true]);
  });
});

describe('where an applied effect stands at each destination, in words', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { deliveryLine } = require('./format.js') as { deliveryLine: (delivery: object) => string };
  const base = { destination: 'fhir', attempts: 1, nextAttemptAt: null, reason: null, httpStatus: null, resource: null, messageId: null, deliveredAt: null };

  it('says what the FHIR server made, when to expect the next attempt and why, and that a dead letter waits for an operator', () => {
    expect(deliveryLine({ ...base, status: 'delivered', resource: { type: 'ServiceRequest', id: 'sr-1', version: '3' } })).toBe('delivered as ServiceRequest/sr-1 (version 3)');
    expect(deliveryLine({ ...base, status: 'retrying', attempts: 2, reason: 'server_error', httpStatus: 503, nextAttemptAt: '2030-06-15' })).toBe(
      'retrying at 2030-06-15 (attempt 2 failed: destination error, HTTP 503)',
    );
    expect(deliveryLine({ ...base, status: 'failed', attempts: 8, reason: 'unreachable' })).toBe('failed after 8 attempt(s) (destination unreachable); an operator can send it again');
    expect(deliveryLine({ ...base, status: 'pending', attempts: 0 })).toBe('waiting to be sent');
  });
});
