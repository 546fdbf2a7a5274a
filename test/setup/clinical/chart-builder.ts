import {
  AdverseEventRow,
  AllergyRow,
  ConditionRow,
  EncounterRow,
  MedicationRow,
  ObservationRow,
  PatientChart,
  PatientRow,
  ProcedureRow,
  RequestRow,
} from '../../../src/cohort/chart.types';
import {
  AllergyClinicalStatus,
  CodeSystem,
  CodeSystemUri,
  ConditionCategory,
  ConditionClinicalStatus,
  ConditionVerificationStatus,
  EncounterClass,
  EncounterStatus,
  MedicationStatus,
  OBSERVATION_CATEGORY_SYSTEM,
  ObservationCategory,
  ObservationStatus,
  ProcedureStatus,
  RequestIntent,
  RequestKind,
  RequestStatus,
  Sex,
} from '../../../src/cohort/enum';

/**
 * Small hand-built charts for edge cases the fixture cohort does not cover. Every row gets a
 * readable id (`obs-3`), and every builder takes `Partial` overrides of the row it makes.
 * Timestamps are ISO strings; a bare day means 09:00 UTC, as in the fixtures.
 */
let sequence = 0;
const id = (kind: string) => `${kind}-${++sequence}`;
const ts = (value: string) => (value.length === 10 ? `${value}T09:00:00.000Z` : value);

export function patient(overrides: Partial<PatientRow> = {}): PatientRow {
  return {
    id: id('pat'),
    mrn: 'VGL-TEST',
    givenName: 'Test',
    familyName: 'Patient',
    birthDate: '1966-06-30',
    sex: Sex.Female,
    sexCode: null,
    race: [],
    ethnicity: [],
    phone: '555-0000',
    email: 'test@example.org',
    addressLine: '1 Test Street',
    city: 'Testville',
    state: 'OR',
    postalCode: '97000',
    deceasedAt: null,
    ...overrides,
  };
}

export function chart(rows: Partial<PatientChart> = {}): PatientChart {
  return {
    patient: patient(),
    encounters: [],
    observations: [],
    conditions: [],
    medications: [],
    dispenses: [],
    immunizations: [],
    communications: [],
    administrations: [],
    tasks: [],
    procedures: [],
    allergies: [],
    requests: [],
    adverseEvents: [],
    ...rows,
  };
}

export function encounter(cls: EncounterClass, start: string, end: string | null = start, overrides: Partial<EncounterRow> = {}): EncounterRow {
  return {
    id: id('enc'),
    class: cls,
    classCode: null,
    status: EncounterStatus.Finished,
    typeSystem: null,
    typeCode: null,
    typeDisplay: null,
    typeOtherCodings: [],
    reasonSystem: null,
    reasonCode: null,
    reasonDisplay: null,
    startAt: ts(start),
    endAt: end === null ? null : ts(end),
    disposition: null,
    dischargeDispositionSystem: null,
    dischargeDispositionCode: null,
    diagnoses: [],
    reasonReferences: [],
    locations: [],
    ...overrides,
  };
}

export function visit(day: string, overrides: Partial<EncounterRow> = {}): EncounterRow {
  return encounter(EncounterClass.Ambulatory, day, day, overrides);
}

export function observation(code: string, value: number | string, at: string, overrides: Partial<ObservationRow> = {}): ObservationRow {
  return {
    id: id('obs'),
    encounterId: null,
    panelId: null,
    panelOwnValue: false,
    category: ObservationCategory.Laboratory,
    categorySystem: OBSERVATION_CATEGORY_SYSTEM,
    status: ObservationStatus.Final,
    codeSystem: CodeSystem.Loinc,
    code,
    display: code,
    valueNumeric: typeof value === 'number' ? value : null,
    valueText: typeof value === 'string' ? value : null,
    unit: null,
    referenceLow: null,
    referenceHigh: null,
    referenceText: null,
    interpretation: null,
    effectiveAt: ts(at),
    effectiveEndAt: null,
    effectivePeriodOpen: false,
    valueSystem: null,
    valueCode: null,
    dataAbsentReason: null,
    partOfProcedureId: null,
    issuedAt: null,
    notDoneReasonSystem: null,
    notDoneReasonCode: null,
    ...overrides,
  };
}

export function bloodPressure(systolic: number, diastolic: number, at: string, encounterId: string | null = null): ObservationRow[] {
  const common = { category: ObservationCategory.VitalSigns, unit: 'mm[Hg]', encounterId };
  return [observation('8480-6', systolic, at, common), observation('8462-4', diastolic, at, common)];
}

export function condition(system: CodeSystemUri, code: string, onset: string, overrides: Partial<ConditionRow> = {}): ConditionRow {
  return {
    id: id('cond'),
    codeSystem: system,
    code,
    display: code,
    clinicalStatus: ConditionClinicalStatus.Active,
    verificationStatus: ConditionVerificationStatus.Confirmed,
    category: ConditionCategory.ProblemListItem,
    bodySiteSystem: null,
    bodySiteCode: null,
    onsetDate: onset,
    abatementDate: null,
    onsetAt: null,
    abatementAt: null,
    otherCodings: [],
    severitySystem: null,
    severityCode: null,
    recordedAt: ts(onset),
    ...overrides,
  };
}

/** An RxNorm order authored the day it starts; override `doNotPerform`, `supply`… for other cases. */
export function medication(
  code: string,
  status: MedicationStatus,
  start: string,
  end: string | null = null,
  overrides: Partial<MedicationRow> = {},
): MedicationRow {
  return {
    id: id('med'),
    codeSystem: CodeSystem.RxNorm,
    code,
    display: code,
    status,
    startDate: start,
    endDate: end,
    dosageText: null,
    intent: RequestIntent.Order,
    doNotPerform: false,
    codeFromReference: false,
    authoredAt: ts(start),
    reasonSystem: null,
    reasonCode: null,
    supply: null,
    ...overrides,
  };
}

export function procedure(system: CodeSystemUri, code: string, at: string, overrides: Partial<ProcedureRow> = {}): ProcedureRow {
  return {
    id: id('proc'),
    encounterId: null,
    codeSystem: system,
    code,
    display: code,
    status: ProcedureStatus.Completed,
    performedAt: ts(at),
    performedEndAt: null,
    performedPeriodOpen: false,
    statusReasonSystem: null,
    statusReasonCode: null,
    bodySiteSystem: null,
    bodySiteCode: null,
    reasonSystem: null,
    reasonCode: null,
    ...overrides,
  };
}

export function allergy(system: CodeSystemUri, code: string, recorded: string, overrides: Partial<AllergyRow> = {}): AllergyRow {
  return {
    id: id('allergy'),
    codeSystem: system,
    code,
    display: code,
    clinicalStatus: AllergyClinicalStatus.Active,
    recordedAt: ts(recorded),
    onsetAt: null,
    onsetEndAt: null,
    onsetPeriodOpen: false,
    ...overrides,
  };
}

/** An active order (ServiceRequest by default; pass `RequestKind.Device` for a DeviceRequest). */
export function request(system: CodeSystemUri, code: string, authored: string, overrides: Partial<RequestRow> = {}): RequestRow {
  return {
    id: id('req'),
    kind: RequestKind.Service,
    codeSystem: system,
    code,
    display: code,
    status: RequestStatus.Active,
    intent: RequestIntent.Order,
    doNotPerform: false,
    authoredAt: ts(authored),
    reasonSystem: null,
    reasonCode: null,
    refusalReasonSystem: null,
    refusalReasonCode: null,
    ...overrides,
  };
}

export function adverseEvent(system: CodeSystemUri, code: string, recorded: string, overrides: Partial<AdverseEventRow> = {}): AdverseEventRow {
  return { id: id('ae'), codeSystem: system, code, display: code, recordedAt: ts(recorded), occurredAt: null, ...overrides };
}
