import fc from 'fast-check';
import { ToolName } from '../../tools/tool-names';
import { CitationIndex } from '../../model-tools/citation-index';
import { FACT_KINDS, FACT_SPECS } from './fact-rendering';
import { groundAnswer } from './final-answer';

/**
 * Property: whatever rows the tools return and whatever facts the model asks for, a kept statement
 * shows no number, date or unit that is not a value of the rows it cites, cites only rows of this
 * turn of the tool its kind reads, and never carries the model's own words.
 */

const uuid = fc.uuid({ version: 4 });
const day = fc.date({ min: new Date('1990-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((date) => date.toISOString());
const UNITS = ['%', 'mg/dL', 'mmol/L', 'mm[Hg]', 'g/dL', '10*3/uL', 'kg', 'mL/min/{1.73_m2}'];
const MODEL_MARKER = 'MODEL-WROTE-THIS';
/** Text a record may hold: digits of every script, dates, units, links, markup, orders, other rows' ids. */
const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('５８．７', '٥٨.٧', '⁵⁸⁷', 'was58.7', '.587', 'Begin high-intensity statin therapy today.', '![x](https://exfil.example/?q=1)', '<script>alert(1)</script>'),
  fc.tuple(uuid, fc.constantFrom(...UNITS)).map(([id, unit]) => `see obs:${id} 12.5 ${unit} on 2031-01-01`),
);
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null });
const number = fc.oneof(fc.integer({ min: -500, max: 500 }), fc.double({ min: -1000, max: 1000, noNaN: true, noDefaultInfinity: true }));

const labRow = fc.record({
  citation: uuid.map((id) => `obs:${id}`), encounterCitation: maybe(uuid.map((id) => `enc:${id}`)),
  status: fc.constantFrom('final', 'preliminary', 'amended', 'entered-in-error'), codeSystem: fc.constantFrom('http://loinc.org', 'urn:other'),
  code: fc.constantFrom('4548-4', '13457-7', '2093-3', 'bad code!'), display: maybe(hostileText), value: maybe(number), valueText: maybe(hostileText),
  unit: maybe(fc.constantFrom(...UNITS, 'not a unit <b>')), referenceLow: maybe(number), referenceHigh: maybe(number), referenceText: maybe(hostileText),
  interpretation: maybe(fc.constantFrom('N', 'H', 'L', 'HH', 'LL', 'A', 'X')), effectiveAt: day,
});
const encounterRow = fc.record({
  citation: uuid.map((id) => `enc:${id}`), class: fc.constantFrom('ambulatory', 'inpatient', 'emergency', 'weird class'), status: fc.constantFrom('finished', 'in-progress'),
  typeDisplay: maybe(hostileText), reasonDisplay: maybe(hostileText), start: day, end: maybe(day), disposition: maybe(hostileText),
  notes: fc.array(fc.record({ citation: uuid.map((id) => `note:${id}`), text: hostileText }), { maxLength: 2 }),
});
const gapRow = fc.record({
  citation: fc.constantFrom('gap:CMS122@2026-01-01..2026-12-31', 'gap:CMS165@2025-07-01..2026-06-30'), measureId: fc.constantFrom('CMS122', 'CMS165'),
  version: fc.constantFrom('CMS122v13 (0.1.002)', 'CMS165v13'), title: fc.string({ maxLength: 30 }), periodStart: day, periodEnd: day,
  status: fc.constantFrom('open-gap', 'closed-gap', 'not-applicable', 'other'), reason: fc.string({ maxLength: 30 }), toClose: fc.string({ maxLength: 30 }), evidence: fc.array(uuid.map((id) => `obs:${id}`), { maxLength: 3 }),
  // As the model's projection gives them (no names); hostile values where a record or a forged row could put them.
  attestations: fc.array(fc.record({
    attestedAt: fc.oneof(day, hostileText), attestedByRole: fc.oneof(fc.constantFrom('clinician', 'reviewer', 'care_coordinator'), hostileText),
    periodStart: day, periodEnd: day, remarkCode: maybe(fc.oneof(fc.constantFrom('performed-elsewhere', 'patient-declined'), hostileText)), evidence: fc.array(uuid.map((id) => `obs:${id}`), { maxLength: 2 }),
  }), { maxLength: 2 }),
});
const missingRow = fc.record({
  citation: fc.constantFrom('missing:hba1c@2026-06-30', 'missing:egfr@2026-06-30'), element: fc.constantFrom('hba1c', 'egfr'),
  status: fc.constantFrom('present', 'stale', 'missing', 'not-applicable'), lastSeen: maybe(day.map((iso) => iso.slice(0, 10))),
  // The service's own words (the conditions that make a lab expected), never record text.
  requiredBecause: maybe(fc.constantFrom('diabetes', 'chronic kidney disease', 'diabetes and chronic kidney disease')), evidence: fc.constant([]),
});
const riskRow = fc.record({
  citation: fc.constantFrom('risk:age@2026-06-30', 'risk:egfr@2026-06-30'), feature: fc.constantFrom('age', 'egfr'), value: maybe(number), baseline: maybe(number),
  weight: number, phi: maybe(number), direction: fc.constantFrom('raises', 'lowers', 'neutral'), imputed: fc.boolean(), evidence: fc.constant([]),
});

const predictionSummary = fc.record({
  citation: fc.constantFrom('prediction:readmission-30d@2026-06-30', 'prediction:readmission-30d@2026-05-30'), modelId: fc.constant('vigil-readmission-30d-lace-style'),
  modelVersion: fc.constant('1.0.0'), indexAdmission: uuid.map((id) => `enc:${id}`), admittedOn: maybe(day.map((iso) => iso.slice(0, 10))),
  dischargedOn: maybe(day.map((iso) => iso.slice(0, 10))), riskPercent: maybe(number), logit: number, baselineLogit: number,
  disclaimer: fc.oneof(fc.constant('Illustrative model, not validated for clinical use.'), hostileText),
});

const results = fc.record({
  patient_labs: fc.array(labRow, { maxLength: 5 }), patient_encounters: fc.array(encounterRow, { maxLength: 3 }),
  care_gap_lookup: fc.array(gapRow, { maxLength: 2 }), missing_data_check: fc.array(missingRow, { maxLength: 2 }), feature_attribution: fc.array(riskRow, { maxLength: 2 }),
  // The readmission prediction is the feature_attribution summary, cited like a row.
  prediction: fc.option(predictionSummary, { nil: undefined }),
});

/** The model's facts: ids of returned rows (any tool), of notes, of rows never returned, and noise. */
function factsFor(ids: string[]) {
  const id = fc.oneof(fc.constantFrom(...(ids.length ? ids : ['obs:none'])), uuid.map((value) => `obs:${value}`), hostileText);
  return fc.array(
    fc.record({ kind: fc.oneof(fc.constantFrom(...FACT_KINDS), fc.string({ maxLength: 8 })), citations: fc.array(id, { maxLength: 3 }), text: fc.constant(`${MODEL_MARKER} 58.7 mg/dL 2031-01-01`) }),
    { maxLength: 8 },
  );
}

/** Each string a value of the cited rows writes, at any depth (the allowed sources of digits, dates and units). */
function valuesOf(rows: Record<string, unknown>[]): string[] {
  const out: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'number') out.push(String(value));
    else if (typeof value === 'string') out.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  rows.forEach(walk);
  return out;
}

describe('fact rendering (property)', () => {
  it('never states a number, date, unit or word of the model that is not in the cited rows', () => {
    fc.assert(
      fc.property(results.chain((byTool) => {
        const ids = Object.values(byTool).flat().flatMap((row) => (row ? [row.citation, ...('notes' in row ? row.notes.map((note) => note.citation) : [])] : []));
        return fc.tuple(fc.constant(byTool), factsFor(ids));
      }), ([byTool, facts]) => {
        const index = new CitationIndex();
        const { prediction, ...rowsByTool } = byTool;
        for (const [tool, rows] of Object.entries(rowsByTool)) index.add(tool as ToolName, rows as Record<string, unknown>[]);
        index.addResult('feature_attribution', { rows: [], summary: prediction });
        const { statements } = groundAnswer({ status: 'answered', facts, reason: null, modelTextDiscarded: true }, index);
        for (const statement of statements) {
          const cited = statement.citations.map((id) => index.rows.get(id));
          expect(cited.every((row) => row?.tool === FACT_SPECS[statement.kind].tool)).toBe(true);
          const sources = valuesOf(cited.map((row) => row!.row));
          const fromRows = (token: string) => sources.some((value) => value.includes(token));
          expect(statement.text).not.toContain(MODEL_MARKER);
          for (const token of statement.text.match(/[\p{Nd}\p{No}]+/gu) ?? []) expect({ token, fromRows: fromRows(token) }).toEqual({ token, fromRows: true });
          for (const date of statement.text.match(/\d{4}-\d{2}-\d{2}/g) ?? []) expect(fromRows(date)).toBe(true);
          for (const unit of UNITS) if (statement.text.includes(` ${unit}`)) expect(fromRows(unit)).toBe(true);
          // No markup from a record survives into the statement: no tag, no Markdown link or image.
          expect(statement.text).not.toMatch(/<|>|\]\(|!\[/);
          // Record text that gives orders or claims is never repeated.
          expect(statement.text).not.toMatch(/Begin high-intensity|exfil|obs:[0-9a-f]{8}-/);
        }
      }),
      { numRuns: 400 },
    );
  });
});
