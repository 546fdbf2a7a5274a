import { CodeSystem, ObservationStatus } from '../../cohort/enum';
import { chart, condition, observation, patient, procedure, request, visit } from '../../../test/setup/clinical/chart-builder';
import type { FhirResource } from '../elm';
import { chartToFhir } from '.';

/** What the published (QI-Core 6) measures read of a chart, written back as the source had it. */
const ofType = (resources: FhirResource[], type: string) => resources.filter((resource) => resource.resourceType === type);
const US_CORE_SEX = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-sex';
const QICORE = 'http://hl7.org/fhir/us/qicore/StructureDefinition/';
const CDC_RACE = 'urn:oid:2.16.840.1.113883.6.238';

describe('chartToFhir: what the published measures read', () => {
  it('writes stored instants to the millisecond, as certain as the source wrote them', () => {
    const resources = chartToFhir(chart({ encounters: [visit('2026-01-01T00:00:00Z', { endAt: '2026-01-01T01:15:00Z' })] }));
    expect(ofType(resources, 'Encounter')[0].period).toEqual({ start: '2026-01-01T00:00:00.000Z', end: '2026-01-01T01:15:00.000Z' });
    const [lab] = ofType(chartToFhir(chart({ observations: [observation('4548-4', 6.1, '2026-02-03T10:00:00Z', { unit: '%' })] })), 'Observation');
    expect(lab.effectiveDateTime).toBe('2026-02-03T10:00:00.000Z');
  });

  it('writes a whole number without a unit as an integer (a score), and any other number as a Quantity', () => {
    const [score, decimal, withUnit] = ofType(
      chartToFhir(chart({ observations: [observation('44261-6', 12, '2026-02-19'), observation('44261-6', 12.5, '2026-02-20'), observation('4548-4', 7, '2026-02-21', { unit: '%' })] })),
      'Observation',
    );
    expect(score.valueInteger).toBe(12);
    expect(score.valueQuantity).toBeUndefined();
    expect(decimal.valueQuantity).toEqual({ value: 12.5 });
    expect(withUnit.valueQuantity).toMatchObject({ value: 7, code: '%' });
  });

  it("writes US Core's sex extension when the patient has one, and none otherwise", () => {
    const [withSex] = chartToFhir(chart({ patient: patient({ sexCode: '248152002' }) }));
    expect(withSex.extension).toEqual([{ url: US_CORE_SEX, valueCode: '248152002' }]);
    expect(chartToFhir(chart())[0].extension).toBeUndefined();
  });

  it("writes a condition's onset and abatement instants when stored, its other codings after the stored one, and its severity", () => {
    const row = condition(CodeSystem.SnomedCt, '134401001', '2026-04-14', {
      onsetAt: '2026-04-14T14:41:00Z',
      abatementDate: '2026-05-01',
      abatementAt: '2026-05-01T08:00:00Z',
      otherCodings: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'I50.1' }],
      severitySystem: CodeSystem.SnomedCt,
      severityCode: '24484000',
    });
    const [resource] = ofType(chartToFhir(chart({ conditions: [row] }), { timezoneOffset: -5 }), 'Condition');
    expect(resource).toMatchObject({
      onsetDateTime: '2026-04-14T14:41:00.000Z',
      abatementDateTime: '2026-05-01T08:00:00.000Z',
      severity: { coding: [{ system: CodeSystem.SnomedCt, code: '24484000' }] },
    });
    expect(resource.code).toEqual({
      coding: [{ system: CodeSystem.SnomedCt, code: '134401001', display: '134401001' }, { system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'I50.1' }],
    });
  });

  it('writes partOf to a Procedure the chart holds, and nothing for one it does not', () => {
    const staging = procedure(CodeSystem.SnomedCt, '254292007', '2026-06-30');
    const held = observation('21902-2', 'cTis', '2026-06-30', { partOfProcedureId: staging.id });
    const missing = observation('21902-2', 'cTis', '2026-06-30', { partOfProcedureId: '00000000-0000-4000-8000-000000000000' });
    const [first, second] = ofType(chartToFhir(chart({ observations: [held, missing], procedures: [staging] })), 'Observation');
    expect(first.partOf).toEqual([{ reference: `Procedure/${staging.id}` }]);
    expect(second.partOf).toBeUndefined();
  });

  it("writes US Core's race and ethnicity extensions from the stored codings", () => {
    const race = [{ part: 'ombCategory' as const, system: CDC_RACE, code: '2028-9' }, { part: 'detailed' as const, system: CDC_RACE, code: '2039-6' }];
    const [resource] = chartToFhir(chart({ patient: patient({ race, ethnicity: [{ part: 'ombCategory', system: CDC_RACE, code: '2186-5' }] }) }));
    expect(resource.extension).toEqual([
      {
        url: 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-race',
        extension: [{ url: 'ombCategory', valueCoding: { system: CDC_RACE, code: '2028-9' } }, { url: 'detailed', valueCoding: { system: CDC_RACE, code: '2039-6' } }],
      },
      { url: 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-ethnicity', extension: [{ url: 'ombCategory', valueCoding: { system: CDC_RACE, code: '2186-5' } }] },
    ]);
  });

  it('writes why something was not done: an observation\'s notDoneReason and issued, a request\'s doNotPerformReason, a procedure\'s reasonCode', () => {
    const cancelled = observation('73831-0', 'true', '2026-01-02T08:00:00Z', { status: ObservationStatus.Cancelled, notDoneReasonSystem: CodeSystem.SnomedCt, notDoneReasonCode: '183932001', issuedAt: '2026-01-02T08:00:00Z' });
    const refused = request(CodeSystem.SnomedCt, '308470006', '2026-01-01', { doNotPerform: true, refusalReasonSystem: CodeSystem.SnomedCt, refusalReasonCode: '407563006' });
    const regime = procedure(CodeSystem.SnomedCt, '182922004', '2026-01-01', { reasonSystem: CodeSystem.Icd10Cm, reasonCode: 'E66.01' });
    const resources = chartToFhir(chart({ observations: [cancelled], requests: [refused], procedures: [regime] }));
    expect(ofType(resources, 'Observation')[0]).toMatchObject({
      extension: [{ url: `${QICORE}qicore-notDoneReason`, valueCodeableConcept: { coding: [{ system: CodeSystem.SnomedCt, code: '183932001' }] } }],
      issued: '2026-01-02T08:00:00.000Z',
    });
    expect(ofType(resources, 'ServiceRequest')[0].extension).toEqual([
      { url: `${QICORE}qicore-doNotPerformReason`, valueCodeableConcept: { coding: [{ system: CodeSystem.SnomedCt, code: '407563006' }] } },
    ]);
    expect(ofType(resources, 'Procedure')[0].reasonCode).toEqual([{ coding: [{ system: CodeSystem.Icd10Cm, code: 'E66.01' }] }]);
  });

  it("writes an encounter's other type codings beside the stored one, in one concept", () => {
    const row = visit('2026-03-05', { typeSystem: CodeSystem.SnomedCt, typeCode: '37894004', typeOtherCodings: [{ system: 'http://www.ama-assn.org/go/cpt', code: '99213' }] });
    const [resource] = ofType(chartToFhir(chart({ encounters: [row] })), 'Encounter');
    expect(resource.type).toEqual([{ coding: [{ system: CodeSystem.SnomedCt, code: '37894004' }, { system: 'http://www.ama-assn.org/go/cpt', code: '99213' }] }]);
  });
});
