// Compiled measures read a date-time written without an offset in the process's zone: fix it first.
process.env.TZ = 'UTC';

import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { chartToFhir } from '../src/clinical/chart-fhir';
import { publishedCareGap } from '../src/clinical/care-gaps';
import { compileMeasure, evaluateMeasure, evaluateMeasureExplained, MeasurePatient } from '../src/clinical/elm';
import { FhirValue } from '../src/clinical/elm/runtime/fhir-value';
import { EDITIONS, measureContent, measureKeys, officialCases } from '../test/elm/ecqm-measures';
import { NOW, PERIOD, prepareWorkload } from './care-gap-engine-paths';

/**
 * Every answer the compiled engine gives on a large workload, as text, so a change meant to be
 * faster only can be checked to change none: the bench's generated charts through the published
 * path (populations, evidence) and every define of each main library, and every official case of
 * both editions. Writes one line per answer to the file named (default care-gap-answers.txt) and
 * prints a digest; compare two runs with cmp.
 */

function text(value: unknown, seen = new Set<unknown>()): unknown {
  if (value === null || value === undefined || typeof value !== 'object') return value === undefined ? '<undefined>' : value;
  if (value instanceof FhirValue) return { fhir: value.typeName, json: value.json };
  if (seen.has(value)) return '<cycle>';
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => text(item, seen));
    if (value instanceof Map) return { map: [...value.entries()].map(([k, v]) => [text(k, seen), text(v, seen)]) };
    const name = (value as object).constructor?.name ?? 'Object';
    const out: Record<string, unknown> = { '@': name };
    for (const [key, item] of Object.entries(value)) out[key] = text(item, seen);
    if (name !== 'Object' && typeof (value as { toString?: unknown }).toString === 'function' && (value as object).toString !== Object.prototype.toString) out['#'] = String(value);
    return out;
  } finally {
    seen.delete(value);
  }
}

const lines: string[] = [];
const add = (label: string, value: unknown) => lines.push(`${label}\t${JSON.stringify(text(value))}`);
const attempt = (label: string, run: () => unknown) => {
  try {
    add(label, run());
  } catch (error) {
    add(label, { error: error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error) });
  }
};

const count = Number(process.env.CARE_GAP_ANSWERS_CHARTS ?? 2000);
const work = prepareWorkload({ count, seed: 20250101, anchor: '2026-01-01' });
work.charts.forEach((chart, i) => {
  const patient = new MeasurePatient(chartToFhir(chart, { timezoneOffset: 0 }), { now: NOW, timezoneOffset: 0 });
  for (const m of work.measures) {
    attempt(`chart ${i} ${m.id} published`, () => publishedCareGap(m.published, { compiled: m.compiled, mainLibrary: m.main, patient, period: PERIOD }));
  }
  const fresh = new MeasurePatient(work.resources[i], { now: NOW });
  for (const m of work.measures) attempt(`chart ${i} ${m.id} defines`, () => evaluateMeasureExplained(m.compiled, [...m.compiled.defines.keys()], fresh, PERIOD));
});
if (process.env.CARE_GAP_ANSWERS_OFFICIAL !== '0') {
  for (const edition of EDITIONS) {
    for (const key of measureKeys(edition)) {
      const content = measureContent(edition, key);
      let compiled;
      try {
        compiled = compileMeasure(content.measure, content.libraries, content.valueSets, { missingValueSets: 'empty' });
      } catch (error) {
        add(`${edition} ${key} compile`, { error: String(error) });
        continue;
      }
      for (const c of officialCases(edition, key)) {
        attempt(`${edition} ${key} ${c.caseId}`, () => evaluateMeasure(compiled, c.resources, c.period, { inferProfiles: false, timezoneOffset: 0 }));
        attempt(`${edition} ${key} ${c.caseId} defines`, () => evaluateMeasureExplained(compiled, [...compiled.defines.keys()], c.resources, c.period, { inferProfiles: false, timezoneOffset: 0, now: NOW }));
      }
    }
  }
}
const file = process.argv[2] ?? 'care-gap-answers.txt';
const body = `${lines.join('\n')}\n`;
writeFileSync(file, body);
process.stdout.write(`${lines.length} answers, sha256 ${createHash('sha256').update(body).digest('hex')}\n`);
