import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { answerErrors, PROFILES_DIR, validate, VALIDATOR_LIMITS } from '../../test/setup/fhir-validator';
import type { CareGapReport } from '../tools/tool-read.service';
import { gapsDocument } from './gaps-document';

const PATIENT = '11111111-1111-4111-8111-111111111111';
const OBS = '22222222-2222-4222-8222-222222222222';
const ENC = '33333333-3333-4333-8333-333333333333';
const COND = '44444444-4444-4444-8444-444444444444';
const MED = '55555555-5555-4555-8555-555555555555';
const NOW = '2026-06-30T12:00:00.000Z';

const populations = (ip: boolean, den: boolean, num: boolean) => ({ initialPopulation: ip, denominator: den, denominatorExclusion: false, denominatorException: false, numerator: num });
const gap = (measureId: string, status: string, groups: ReturnType<typeof populations>[], evidence: Record<string, string[]> = {}) => ({
  citation: `gap:${measureId}@2025-07-01..2026-06-30`,
  measureId,
  title: `${measureId} title`,
  periodStart: '2025-07-01',
  periodEnd: '2026-06-30',
  status,
  reason: 'Why, in words.',
  toClose: 'What would close it.',
  evidence: Object.values(evidence).flat(),
  groups: groups.map((group) => ({ populations: group, evidence })),
});

/** A report as `ToolReadService` hands it over: a clinician's projection of care_gap_lookup and the cited rows. */
function report(): CareGapReport {
  return {
    patientId: PATIENT,
    envelope: {
      tool: 'care_gap_lookup',
      status: 'ok',
      patient: { handle: PATIENT, mrn: 'VGL-000001', givenName: 'Ada', familyName: 'Example', birthDate: '1960-01-02', age: 66, sex: 'female', phone: '555-0100' },
      window: { from: '2025-07-01', to: '2026-06-30', asOf: '2026-06-30', semantics: '' },
      rows: [
        gap('CMS122', 'open-gap', [populations(true, true, true)], { initialPopulation: [`enc:${ENC}`, `cond:${COND}`], numerator: [`obs:${OBS}`] }),
        gap('CMS347', 'closed-gap', [populations(true, true, true), populations(false, false, false), populations(true, true, true), populations(false, false, false)], { numerator: [`med:${MED}`] }),
        gap('CMS125', 'not-applicable', [populations(false, false, false)]),
      ],
      rowCount: 3,
      truncated: false,
      redactedFields: [],
      assumptions: [],
      breakGlass: false,
    },
    evidence: {
      observations: [{ citation: `obs:${OBS}`, category: 'laboratory', status: 'final', codeSystem: 'http://loinc.org', code: '4548-4', display: 'HbA1c', value: 9.4, unit: '%', effectiveAt: '2026-03-01T09:00:00Z' }],
      encounters: [{ citation: `enc:${ENC}`, class: 'ambulatory', status: 'finished', typeSystem: 'http://snomed.info/sct', typeCode: '185349003', typeDisplay: 'Check-up', start: '2026-03-01T09:00:00Z', end: '2026-03-01T09:30:00Z' }],
      conditions: [{ citation: `cond:${COND}`, codeSystem: 'http://snomed.info/sct', code: '44054006', display: 'Diabetes type 2', clinicalStatus: 'active', verificationStatus: 'confirmed', category: 'problem-list-item', onsetDate: '2015-05-01' }],
      redactedFields: [],
    },
  };
}

/** FHIR JSON as the tests walk it: any shape, read by path. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
const resources = (bundle: Json) => (bundle.entry as Json[]).map((entry) => entry.resource as Json);

describe(gapsDocument.name, () => {
  it('makes one document: the Composition first, then per reported measure a MeasureReport and a DetectedIssue, then the patient and the cited records', () => {
    const sut = gapsDocument(report(), { statuses: ['open-gap', 'closed-gap'], now: NOW })!;
    expect(sut.measures).toEqual(['CMS122', 'CMS347']);
    expect(resources(sut.bundle).map((resource) => resource.resourceType)).toEqual([
      'Composition', 'MeasureReport', 'DetectedIssue', 'MeasureReport', 'DetectedIssue', 'Patient', 'Encounter', 'Condition', 'Observation', 'Organization',
    ]);
    const issues = resources(sut.bundle).filter((resource) => resource.resourceType === 'DetectedIssue');
    expect(issues.map((issue) => issue.modifierExtension[0].valueCodeableConcept.coding[0].code)).toEqual(['open-gap', 'closed-gap']);
    const [cms122, cms347] = resources(sut.bundle).filter((resource) => resource.resourceType === 'MeasureReport');
    expect(cms122.measure).toBe('https://madie.cms.gov/Measure/DiabetesGlycemicStatusAssessmentGreaterThan9PercentFHIR|0.1.002');
    expect(cms122.improvementNotation.coding[0].code).toBe('decrease');
    expect(cms122.group[0].population.map((population: Json) => [population.code.coding[0].code, population.count])).toEqual([
      ['initial-population', 1], ['denominator', 1], ['denominator-exclusion', 0], ['numerator', 1],
    ]);
    expect(cms347.group.map((group: Json) => group.population.length)).toEqual([5, 5, 5, 5]);
    expect(cms347.group.map((group: Json) => group.measureScore.value)).toEqual([1, undefined, 1, undefined]);
    // A record the read path gives is a resource in the document; a medication order is named by its citation.
    expect(cms122.evaluatedResource.map((reference: Json) => reference.reference)).toEqual([`urn:uuid:${ENC}`, `urn:uuid:${COND}`, `urn:uuid:${OBS}`]);
    expect(cms347.evaluatedResource).toEqual([
      expect.objectContaining({ type: 'MedicationRequest', identifier: { system: 'urn:vigil:citation', value: `med:${MED}` } }),
    ]);
  });

  it('says who the patient is and nothing about how to reach them', () => {
    const patient = resources(gapsDocument(report(), { statuses: ['open-gap'], now: NOW })!.bundle).find((resource) => resource.resourceType === 'Patient')!;
    expect(Object.keys(patient).sort()).toEqual(['birthDate', 'gender', 'id', 'identifier', 'meta', 'name', 'resourceType']);
  });

  it('reports only the statuses asked for, and no document without a reported measure', () => {
    expect(gapsDocument(report(), { statuses: ['closed-gap'], now: NOW })!.measures).toEqual(['CMS347']);
    const none = report();
    none.envelope.rows = none.envelope.rows.filter((row) => row.status === 'not-applicable');
    expect(gapsDocument(none, { statuses: ['open-gap', 'closed-gap'], now: NOW })).toBeNull();
  });

  it('validates against the DEQM and QI-Core profiles', () => {
    const bundle = gapsDocument(report(), { statuses: ['open-gap', 'closed-gap'], now: NOW })!.bundle;
    expect(answerErrors({ resourceType: 'Parameters', parameter: [{ name: 'return', resource: bundle }] })).toEqual([]);
  });

  it('is caught by the validation when it breaks a profile', () => {
    const bundle = gapsDocument(report(), { statuses: ['open-gap', 'closed-gap'], now: NOW })!.bundle as Json;
    const [composition, measureReport, issue] = resources(bundle);
    delete composition.subject;
    measureReport.type = 'summary';
    issue.modifierExtension = [];
    const observation = resources(bundle).find((resource) => resource.resourceType === 'Observation')!;
    delete observation.code;
    const errors = answerErrors({ resourceType: 'Parameters', parameter: [{ name: 'return', resource: bundle }] });
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Composition.subject'),
        expect.stringContaining('MeasureReport.type'),
        expect.stringContaining('a DetectedIssue lacks exactly one gapStatus'),
        expect.stringContaining('Observation.code'),
      ]),
    );
  });

  it.each(VALIDATOR_LIMITS.map((limit) => [limit.message, limit]))('knows the validator limit "%s" from the IG’s own example', (_message, limit) => {
    const example = { 'gaps-bundle-deqm': 'Bundle-single-gaps-open-indv-report01', 'indv-measurereport-deqm': 'MeasureReport-gaps-indv-measurereport01', 'gaps-detectedissue-deqm': 'DetectedIssue-gaps-detectedissue01' }[
      limit.profile.split('/').pop()!
    ]!;
    const resource = JSON.parse(readFileSync(join(PROFILES_DIR, 'deqm-3.0.0', 'example', `${example}.json`), 'utf8'));
    expect(validate(resource, limit.profile).filter((issue) => issue.severity === 'error')).toEqual([{ severity: 'error', message: limit.message, expression: limit.expression }]);
  });
});
