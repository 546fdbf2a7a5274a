import { Json } from './json';
import { mapAdverseEvent, mapAllergyIntolerance, mapCommunication, mapCondition, mapImmunization, mapProcedure } from './map-records';
import { mapMedicationDispense, mapMedicationRequest, mapRequest } from './map-requests';
import { medicationSupply } from './medication-supply';
import { normaliseSystem, preferredCoding } from './codes';
import { code, context, PATIENT, reasonOf, RXNORM, SNOMED, source } from './testing/mapper-context';

const ICD10CM = 'http://hl7.org/fhir/sid/icd-10-cm';
const subject = { subject: { reference: 'urn:uuid:p1' } };
const categoryOf = (system: string, value: string) => [{ coding: [{ system, code: value }] }];

describe('codes', () => {
  it('keeps any system URI, normalises OIDs, and refuses text that is no URI', () => {
    expect(normaliseSystem('urn:oid:2.16.840.1.113883.6.1')).toBe('http://loinc.org');
    expect(normaliseSystem('urn:oid:2.16.840.1.113883.6.4')).toBe('http://www.cms.gov/Medicare/Coding/ICD10');
    expect(normaliseSystem('http://example.org/local codes')).toBeNull();
    expect(normaliseSystem('ICD10')).toBeNull();
    expect(normaliseSystem('urn:oid:1.2.3')).toBe('urn:oid:1.2.3');
  });

  it('preferredCoding: the first a value set knows, else the first in source order', () => {
    const codings = [{ system: 'a:x', code: '1' }, { system: 'a:y', code: '2' }];
    expect(preferredCoding(codings)?.code).toBe('1');
    expect(preferredCoding(codings, (system) => system === 'a:y')?.code).toBe('2');
    expect(preferredCoding(codings, () => false)?.code).toBe('1');
  });
});

describe(mapCondition.name, () => {
  const condition = (extra: Json) =>
    mapCondition(source('Condition', { ...subject, code: code(SNOMED, '44054006', 'Diabetes'), clinicalStatus: code('x', 'active'), onsetDateTime: '2015-04-01T08:00:00+00:00', ...extra }), context());
  const row = (extra: Json) => condition(extra).rows.conditions?.[0];

  it('keeps its code in any system and its day of onset', () => {
    expect(row({})).toMatchObject({ code_system: SNOMED, onset_date: '2015-04-01', recorded_at: '2015-04-01T08:00:00+00:00', clinical_status: 'active' });
    expect(row({ code: code('http://hl7.org/fhir/sid/icd-9-cm', '250.00') })).toMatchObject({ code_system: 'http://hl7.org/fhir/sid/icd-9-cm', code: '250.00' });
  });

  it('keeps refuted and entered-in-error conditions with their verification status', () => {
    expect(row({ verificationStatus: code('x', 'refuted') })?.verification_status).toBe('refuted');
    expect(row({ verificationStatus: code('x', 'entered-in-error'), clinicalStatus: undefined })).toMatchObject({ verification_status: 'entered-in-error', clinical_status: null });
  });

  it('reads the category from the HL7 or the US Core system, passing other codings over', () => {
    expect(row({ category: categoryOf('http://terminology.hl7.org/CodeSystem/condition-category', 'encounter-diagnosis') })?.category).toBe('encounter-diagnosis');
    expect(row({ category: [{ coding: [{ system: SNOMED, code: '439401001' }, { system: 'http://hl7.org/fhir/us/core/CodeSystem/condition-category', code: 'health-concern' }] }] })?.category).toBe('health-concern');
    expect(row({})?.category).toBeNull();
  });

  it('prefers the category the measures read (problem list, health concern) over an encounter diagnosis, in any position', () => {
    const hl7 = 'http://terminology.hl7.org/CodeSystem/condition-category';
    const both = [...categoryOf(hl7, 'encounter-diagnosis'), ...categoryOf(hl7, 'problem-list-item')];
    expect(row({ category: both })?.category).toBe('problem-list-item');
    expect(row({ category: [...categoryOf(hl7, 'encounter-diagnosis'), ...categoryOf('http://hl7.org/fhir/us/core/CodeSystem/condition-category', 'health-concern')] })?.category).toBe('health-concern');
  });

  it('matches a category by system and code, as CQL `~` does (health-concern is US Core’s, problem-list-item HL7’s)', () => {
    expect(row({ category: categoryOf('http://terminology.hl7.org/CodeSystem/condition-category', 'health-concern') })?.category).toBeNull();
    expect(row({ category: categoryOf('http://example.org/local-categories', 'problem-list-item') })?.category).toBeNull();
  });

  it('reads onsetPeriod by its start and abatementPeriod by its end, and the body site', () => {
    const mapped = row({ onsetDateTime: undefined, onsetPeriod: { start: '2020-01-01T00:00:00Z' }, abatementPeriod: { end: '2024-12-31T08:00:00+00:00' }, bodySite: [code(SNOMED, '7771000', 'Left')] });
    expect(mapped).toMatchObject({ onset_date: '2020-01-01', abatement_date: '2024-12-31', body_site_system: SNOMED, body_site_code: '7771000' });
  });

  it('dates by the abatement when it has neither recordedDate nor onset, with a warning', () => {
    const mapped = condition({ onsetDateTime: undefined, abatementPeriod: { end: '2024-12-31T08:00:00+00:00' } });
    expect(mapped.rows.conditions?.[0]).toMatchObject({ recorded_at: '2024-12-31T08:00:00+00:00', onset_date: null });
    expect(mapped.warnings).toEqual(['recordedDate and onset missing (recorded at the abatement)']);
  });

  it('leaves an Age/Range/string or partial onset empty with a warning; no day at all is a skip', () => {
    const aged = condition({ onsetDateTime: undefined, onsetAge: { value: 40, unit: 'a' }, recordedDate: '2020-01-01' });
    expect([aged.rows.conditions?.[0].onset_date, aged.warnings]).toEqual([null, ['onsetAge names no day (left empty)']]);
    const partial = condition({ onsetDateTime: '2019', recordedDate: '2020-01-01' });
    expect([partial.rows.conditions?.[0].onset_date, partial.warnings]).toEqual([null, ['onset[x] is partial (left empty)']]);
    expect(reasonOf(() => condition({ onsetDateTime: undefined }))).toBe('neither recordedDate, onset[x] nor abatement[x] gives a day');
  });

  it('stores a missing clinicalStatus as null (the source gave none) and drops an abatement before the onset, with a warning', () => {
    const mapped = condition({ clinicalStatus: undefined, abatementDateTime: '2014-01-01' });
    expect(mapped.rows.conditions?.[0]).toMatchObject({ clinical_status: null, abatement_date: null });
    expect(mapped.warnings).toEqual(['abatement is before onset (abatement left empty)']);
  });
});

describe(mapMedicationRequest.name, () => {
  const request = (extra: Json) =>
    mapMedicationRequest(
      source('MedicationRequest', { ...subject, status: 'active', intent: 'order', medicationCodeableConcept: code(RXNORM, '316672', 'Simvastatin 10 MG'), authoredOn: '2019-01-02T03:04:05Z', ...extra }),
      context(),
    );
  const row = (extra: Json) => request(extra).rows.medications?.[0];

  it('maps the order: code, status, intent, authoredOn, start from authoredOn', () => {
    expect(row({})).toMatchObject({ code: '316672', status: 'active', intent: 'order', do_not_perform: 'false', authored_at: '2019-01-02T03:04:05Z', start_date: '2019-01-02', end_date: null, supply: null });
  });

  it('stores a decision not to prescribe (doNotPerform) with its reason', () => {
    const reason = [{ coding: [{ system: SNOMED, code: '183932001', display: 'Procedure contraindicated' }] }];
    expect(row({ status: 'completed', doNotPerform: true, reasonCode: reason })).toMatchObject({ do_not_perform: 'true', status: 'completed', reason_system: SNOMED, reason_code: '183932001' });
  });

  it('resolves medicationReference to a Medication of the import or a contained one', () => {
    expect(row({ medicationCodeableConcept: undefined, medicationReference: { reference: 'Medication/m1' } })).toMatchObject({ code: '312836', display: 'rivastigmine 6 MG Oral Capsule', code_from_reference: 'true' });
    const contained = [{ resourceType: 'Medication', id: 'med', code: code(RXNORM, '197361', 'amlodipine 5 MG') }];
    expect(row({ medicationCodeableConcept: undefined, contained, medicationReference: { reference: '#med' } })).toMatchObject({ code: '197361', code_from_reference: 'true' });
    expect(row({})?.code_from_reference).toBe('false');
    expect(reasonOf(() => request({ medicationCodeableConcept: undefined, medicationReference: { reference: 'Medication/nowhere' } }))).toBe('medication reference does not resolve to a Medication in this import');
  });

  it('starts at the dosage bounds, else authoredOn, else the validity start; an end before the start is dropped with a warning', () => {
    const bounds = { timing: { repeat: { boundsPeriod: { start: '2025-01-05T08:00:00Z', end: '2025-03-31T08:00:00Z' } } } };
    expect(row({ dosageInstruction: [bounds] })).toMatchObject({ start_date: '2025-01-05', end_date: '2025-03-31' });
    expect(row({ authoredOn: undefined, dispenseRequest: { validityPeriod: { start: '2024-06-01' } } })).toMatchObject({ start_date: '2024-06-01', authored_at: null });
    expect(reasonOf(() => request({ authoredOn: undefined }))).toBe('start (dosage bounds, authoredOn or validity) missing');
    const backwards = request({ dispenseRequest: { validityPeriod: { end: '2018-01-01' } } });
    expect([backwards.rows.medications?.[0].end_date, backwards.warnings]).toEqual([null, ['end is before start (end left empty)']]);
  });

  it('keeps an order dated only by the end of its dosage bounds, listed from that day, its bounds as given (no start)', () => {
    const onlyEnd = request({ authoredOn: undefined, dosageInstruction: [{ timing: { repeat: { boundsPeriod: { end: '2026-02-01T08:00:00.000+00:00' } } } }] });
    expect(onlyEnd.rows.medications?.[0]).toMatchObject({ start_date: '2026-02-01', end_date: '2026-02-01', authored_at: null });
    expect(JSON.parse(String(onlyEnd.rows.medications?.[0].supply))).toMatchObject({ boundsStart: null, boundsEnd: '2026-02-01' });
    expect(onlyEnd.warnings).toEqual(['dated only by the end of its dosage bounds (listed from that day)']);
  });

  it('keeps the supply elements as given, converting expectedSupplyDuration to days', () => {
    const supply = JSON.parse(
      row({
        dosageInstruction: [{ timing: { repeat: { frequency: 1, frequencyMax: 2, period: 1, periodUnit: 'd', timeOfDay: ['08:00:00', '20:00:00'] } }, doseAndRate: [{ doseQuantity: { value: 1 } }] }],
        dispenseRequest: { expectedSupplyDuration: { value: 90, system: 'http://unitsofmeasure.org', code: 'days' }, quantity: { value: 90 }, numberOfRepeatsAllowed: 3 },
      })?.supply ?? 'null',
    );
    expect(supply).toEqual({
      boundsStart: null, boundsEnd: null, validityStart: null, expectedSupplyDays: 90, quantity: 90, refills: 3,
      frequency: 2, period: 1, periodUnit: 'd', timesOfDay: 2, dose: 1, dosageCount: 1,
    });
  });

  it.each([
    [{ value: 2, code: 'wk' }, 14],
    [{ value: 3, unit: 'months' }, 90],
    [{ value: 1, code: 'a' }, 365],
    [{ value: 10, code: 'd' }, 10],
  ])('converts expectedSupplyDuration %j to %d days', (duration, days) => {
    expect(medicationSupply({ dispenseRequest: { expectedSupplyDuration: duration } }, [])?.expectedSupplyDays).toBe(days);
  });

  it('leaves a supply duration in hours empty, with a warning', () => {
    const warnings: string[] = [];
    expect(medicationSupply({ dispenseRequest: { expectedSupplyDuration: { value: 5, code: 'h' } } }, warnings)?.expectedSupplyDays).toBeNull();
    expect(warnings).toEqual(['expectedSupplyDuration in a unit that is no duration (left empty)']);
  });
});

describe(mapMedicationDispense.name, () => {
  const dispense = (extra: Json) =>
    mapMedicationDispense(
      source('MedicationDispense', { ...subject, status: 'completed', medicationCodeableConcept: code(RXNORM, '1099316', 'desipramine 75 MG'), whenHandedOver: '2026-01-01T01:00:00.000+00:00', ...extra }),
      context(),
    );
  const row = (extra: Json) => dispense(extra).rows.medication_dispenses?.[0];

  it('keeps what CumulativeMedicationDuration reads: handed over, prepared, days supplied, quantity', () => {
    expect(row({ daysSupply: { value: 10, system: 'http://unitsofmeasure.org', code: 'd' }, quantity: { value: 30 }, whenPrepared: '2025-12-31T09:00:00Z' })).toEqual({
      id: expect.any(String), patient_id: PATIENT.rowId, code_system: RXNORM, code: '1099316', display: 'desipramine 75 MG', status: 'completed', code_from_reference: 'false',
      handed_over_at: '2026-01-01T01:00:00.000+00:00', prepared_at: '2025-12-31T09:00:00Z', days_supply: '10', quantity: '30', dosage: null,
    });
  });

  it('converts daysSupply to days, and leaves one in hours empty with a warning', () => {
    expect(row({ daysSupply: { value: 2, code: 'wk' } })?.days_supply).toBe('14');
    const hours = dispense({ daysSupply: { value: 5, code: 'h' } });
    expect([hours.rows.medication_dispenses?.[0].days_supply, hours.warnings]).toEqual([null, ['daysSupply in a unit that is no duration (left empty)']]);
  });

  it('keeps the first dosage\'s timing and dose as a request\'s', () => {
    const dosage = [{ timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } }, doseAndRate: [{ doseQuantity: { value: 1 } }] }, { text: 'second' }];
    expect(JSON.parse(row({ dosageInstruction: dosage })?.dosage ?? 'null')).toEqual({ frequency: 2, period: 1, periodUnit: 'd', timesOfDay: 0, dose: 1, dosageCount: 2 });
  });

  it('resolves a referenced Medication (flagged), keeps a dispense with no date, and skips a status outside FHIR\'s', () => {
    expect(row({ medicationCodeableConcept: undefined, medicationReference: { reference: 'Medication/m1' } })).toMatchObject({ code: '312836', code_from_reference: 'true' });
    expect(row({ whenHandedOver: undefined })).toMatchObject({ handed_over_at: null, prepared_at: null });
    const partial = dispense({ whenHandedOver: '2026' });
    expect([partial.rows.medication_dispenses?.[0].handed_over_at, partial.warnings]).toEqual([null, ['whenHandedOver is partial (left empty)']]);
    expect(reasonOf(() => dispense({ status: 'given' }))).toBe('status outside the schema (unrecognised code)');
    expect(row({ status: 'declined' })?.status).toBe('declined');
  });
});

describe(mapImmunization.name, () => {
  const CVX = 'http://hl7.org/fhir/sid/cvx';
  const given = (extra: Json) =>
    mapImmunization(source('Immunization', { patient: subject.subject, status: 'completed', vaccineCode: code(CVX, '51', 'Hib-HepB'), occurrenceDateTime: '2025-01-10T00:00:00.000+00:00', recorded: '2025-01-02', primarySource: true, ...extra }), context());
  const row = (extra: Json) => given(extra).rows.immunizations?.[0];

  it('keeps the vaccine, status, occurrence, recorded and primary source', () => {
    expect(row({})).toEqual({
      id: expect.any(String), patient_id: PATIENT.rowId, code_system: CVX, code: '51', display: 'Hib-HepB', status: 'completed',
      occurred_at: '2025-01-10T00:00:00.000+00:00', recorded_at: '2025-01-02T00:00:00Z', primary_source: 'true', status_reason_system: null, status_reason_code: null,
    });
  });

  it('keeps a vaccine not given with its reason, and an occurrence only in words as none, with a warning', () => {
    expect(row({ status: 'not-done', statusReason: code(SNOMED, '591000119102', 'Vaccine refused by patient') })).toMatchObject({ status: 'not-done', status_reason_system: SNOMED, status_reason_code: '591000119102' });
    const words = given({ occurrenceDateTime: undefined, occurrenceString: 'as a child' });
    expect([words.rows.immunizations?.[0].occurred_at, words.warnings]).toEqual([null, ['occurrenceString names no day (left empty)']]);
    expect(reasonOf(() => given({ status: 'given' }))).toBe('status outside the schema (unrecognised code)');
  });
});

describe(mapCommunication.name, () => {
  const RECORDED = 'http://hl7.org/fhir/us/qicore/StructureDefinition/qicore-recorded';
  const severity = code(SNOMED, '312903003', 'Mild nonproliferative retinopathy');
  const told = (extra: Json) => mapCommunication(source('Communication', { ...subject, status: 'completed', category: [severity], sent: '2026-03-02T10:00:00Z', ...extra }), context());
  const row = (extra: Json) => told(extra).rows.communications?.[0];

  it('keeps a communication by its category, with its status and when it was sent and received', () => {
    expect(row({ received: '2026-03-03T10:00:00Z' })).toEqual({
      id: expect.any(String), patient_id: PATIENT.rowId, category_system: SNOMED, category_code: '312903003', category_display: 'Mild nonproliferative retinopathy', status: 'completed',
      status_reason_system: null, status_reason_code: null, sent_at: '2026-03-02T10:00:00Z', received_at: '2026-03-03T10:00:00Z', recorded_at: null,
    });
  });

  it('keeps one not done with its reason and QI-Core recorded extension, and one without a category as none', () => {
    const notDone = row({ status: 'not-done', sent: undefined, statusReason: code(SNOMED, '713247000'), extension: [{ url: RECORDED, valueDateTime: '2026-07-09T08:00:00.000+00:00' }] });
    expect(notDone).toMatchObject({ status: 'not-done', status_reason_code: '713247000', recorded_at: '2026-07-09T08:00:00.000+00:00', sent_at: null });
    expect(row({ category: undefined })).toMatchObject({ category_system: null, category_code: null });
    expect(reasonOf(() => told({ status: 'sent' }))).toBe('status outside the schema (unrecognised code)');
  });
});

describe(mapRequest.name, () => {
  const hospice = code(SNOMED, '385763009', 'Hospice care');
  const service = (extra: Json) => mapRequest(source('ServiceRequest', { ...subject, status: 'completed', intent: 'order', code: hospice, authoredOn: '2025-03-01T08:00:00Z', ...extra }), context()).rows.clinical_requests?.[0];
  const device = (extra: Json) =>
    mapRequest(source('DeviceRequest', { ...subject, status: 'completed', intent: 'order', codeCodeableConcept: code(SNOMED, '183240000', 'Walker'), ...extra }), context()).rows.clinical_requests?.[0];
  const modifier = (url: string, value: boolean) => ({ modifierExtension: [{ url, valueBoolean: value }] });

  it('maps a ServiceRequest with status, intent, authoredOn and doNotPerform', () => {
    expect(service({})).toMatchObject({ kind: 'service', code: '385763009', status: 'completed', intent: 'order', do_not_perform: 'false', authored_at: '2025-03-01T08:00:00Z' });
    expect(service({ doNotPerform: true })?.do_not_perform).toBe('true');
    expect(reasonOf(() => service({ intent: 'wish' }))).toBe('intent outside the schema (unrecognised code)');
  });

  it.each([
    'http://hl7.org/fhir/us/qicore/StructureDefinition/qicore-doNotPerform',
    'http://hl7.org/fhir/us/qicore/StructureDefinition/qicore-doNotPeform',
    'http://hl7.org/fhir/5.0/StructureDefinition/extension-DeviceRequest.doNotPerform',
  ])('reads a DeviceRequest doNotPerform from the modifier extension %s', (url) => {
    expect(device(modifier(url, true))?.do_not_perform).toBe('true');
    expect(device(modifier(url, false))?.do_not_perform).toBe('false');
  });

  it('reads a DeviceRequest code from codeCodeableConcept or a Device of the import', () => {
    expect(device({})).toMatchObject({ kind: 'device', code: '183240000', do_not_perform: 'false', authored_at: null });
    expect(device({ codeCodeableConcept: undefined, codeReference: { reference: 'Device/d1' } })?.code).toBe('705417005');
  });
});

describe('procedures, allergies and adverse events', () => {
  const procedure = (extra: Json) =>
    mapProcedure(source('Procedure', { ...subject, status: 'completed', code: code('http://www.cms.gov/Medicare/Coding/ICD10', '0DTJ4ZZ'), performedPeriod: { start: '2020-01-01T10:00:00Z', end: '2020-01-01T11:00:00Z' }, ...extra }), context());

  it('keeps ICD-10-PCS (any system), the period end, every status, and a not-done reason', () => {
    expect(procedure({}).rows.procedures?.[0]).toMatchObject({ code_system: 'http://www.cms.gov/Medicare/Coding/ICD10', performed_at: '2020-01-01T10:00:00Z', performed_end_at: '2020-01-01T11:00:00Z' });
    for (const status of ['preparation', 'on-hold', 'stopped', 'unknown']) expect(procedure({ status }).rows.procedures?.[0].status).toBe(status);
    const notDone = procedure({ status: 'not-done', statusReason: code(SNOMED, '183944003', 'Procedure refused'), bodySite: [code(SNOMED, '24028007')] }).rows.procedures?.[0];
    expect(notDone).toMatchObject({ status: 'not-done', status_reason_system: SNOMED, status_reason_code: '183944003', body_site_code: '24028007' });
  });

  it('marks a performed, effective or onset Period given without an end as open (to the end of time, as FHIRHelpers reads it); a dateTime never', () => {
    expect(procedure({}).rows.procedures?.[0].performed_period_open).toBe('false');
    expect(procedure({ performedPeriod: { start: '2020-01-01T10:00:00Z' } }).rows.procedures?.[0]).toMatchObject({ performed_end_at: null, performed_period_open: 'true' });
    expect(procedure({ performedPeriod: undefined, performedDateTime: '2020-01-01T10:00:00Z' }).rows.procedures?.[0].performed_period_open).toBe('false');
    const allergy = (extra: Json) => mapAllergyIntolerance(source('AllergyIntolerance', { patient: { reference: 'Patient/p1' }, code: code(RXNORM, '301542'), ...extra }), context()).rows.allergies?.[0];
    expect(allergy({ onsetPeriod: { start: '2020-01-01T08:00:00Z' } })).toMatchObject({ onset_at: '2020-01-01T08:00:00Z', onset_end_at: null, onset_period_open: 'true' });
    expect(allergy({ onsetDateTime: '2020-01-01T08:00:00Z' })?.onset_period_open).toBe('false');
    expect(allergy({ onsetPeriod: { start: '2020-01-01T08:00:00Z', end: '2020-02-01T08:00:00Z' } })?.onset_period_open).toBe('false');
  });

  it('dates a procedure without performed[x] by the QI-Core recorded extension, with a warning', () => {
    const recorded = procedure({ performedPeriod: undefined, extension: [{ url: 'http://hl7.org/fhir/us/qicore/StructureDefinition/qicore-recorded', valueDateTime: '2025-01-01T09:00:00.000+00:00' }] });
    expect([recorded.rows.procedures?.[0].performed_at, recorded.warnings]).toEqual(['2025-01-01T09:00:00.000+00:00', ['performed[x] missing (dated by the QI-Core recorded extension)']]);
    expect(reasonOf(() => procedure({ performedPeriod: undefined }))).toBe('performed[x] missing');
  });

  it('reads the allergy patient from `patient`, its onset period, and a missing clinicalStatus as active', () => {
    const mapped = mapAllergyIntolerance(source('AllergyIntolerance', { patient: { reference: 'Patient/p1' }, code: code(RXNORM, '301542'), onsetPeriod: { start: '2024-01-01T08:00:00Z', end: '2024-02-01T08:00:00Z' } }), context());
    expect(mapped.rows.allergies?.[0]).toMatchObject({ patient_id: PATIENT.rowId, clinical_status: 'active', recorded_at: '2024-01-01T08:00:00Z', onset_at: '2024-01-01T08:00:00Z', onset_end_at: '2024-02-01T08:00:00Z' });
    expect(mapped.warnings).toEqual(['clinicalStatus missing (stored as active)']);
  });

  it('maps an adverse event by its event code, recorded at recordedDate, else date', () => {
    const event = (extra: Json) => mapAdverseEvent(source('AdverseEvent', { ...subject, event: code(RXNORM, '301542', 'rosuvastatin'), ...extra }), context()).rows.adverse_events?.[0];
    expect(event({ recordedDate: '2025-01-01T08:00:00Z' })).toMatchObject({ code: '301542', recorded_at: '2025-01-01T08:00:00Z', occurred_at: null });
    expect(event({ date: '2024-12-01' })).toMatchObject({ recorded_at: '2024-12-01T00:00:00Z', occurred_at: '2024-12-01T00:00:00Z' });
    expect(reasonOf(() => event({}))).toBe('neither recordedDate nor date given');
    expect(ICD10CM).toMatch(/^http/);
  });
});
