import { CodeSystem, Interpretation, OBSERVATION_CATEGORY_SYSTEM, ObservationCategory, ObservationStatus } from '../cohort/enum';
import { IdFactory } from './ids';
import { Random } from './random';
import { ObservationRow, PatientRecord } from './rows';
import { HOUR_MS } from './time';
import { IMAGING, LabTest, SMOKING_STATUS, SmokingStatus, VITAL } from './vocabulary';

type ImagingStudy = (typeof IMAGING)[keyof typeof IMAGING];

type Vital = (typeof VITAL)[keyof typeof VITAL];

/** Results reach the chart a few hours after the draw. */
const RESULT_DELAY_MS = 3 * HOUR_MS;

/** Critical limits a lab would phone through (HH/LL); everything else is H, L or N against the range. */
const CRITICAL: Record<string, { low?: number; high?: number }> = {
  '2823-3': { low: 2.8, high: 6.0 },
  '2345-7': { low: 54, high: 400 },
  '718-7': { low: 7 },
  '2951-2': { low: 125, high: 155 },
};

/** The generator records point-in-time results with a value, never a coded answer or an absent one. */
const NO_EXTRA_OBSERVATION_FIELDS = { effectiveEndAt: null, effectivePeriodOpen: false, valueSystem: null, valueCode: null, dataAbsentReason: null, partOfProcedureId: null, panelOwnValue: false, issuedAt: null, notDoneReasonSystem: null, notDoneReasonCode: null } as const;

/**
 * Collects one patient's rows and gives each a deterministic id: `kind` plus a per-patient counter,
 * so ids depend only on (seed, patient index, order of generation).
 */
export class ChartWriter {
  private readonly counters = new Map<string, number>();
  readonly patientId: string;

  constructor(
    private readonly ids: IdFactory,
    private readonly random: Random,
    readonly index: number,
    readonly record: PatientRecord,
  ) {
    this.patientId = record.patient.id;
  }

  nextId(kind: string): string {
    const ordinal = this.counters.get(kind) ?? 0;
    this.counters.set(kind, ordinal + 1);
    return this.ids.id(this.index, kind, ordinal);
  }

  /** How rarely a lab result is anything but final: amended, corrected, preliminary, entered in error. */
  private labStatus(): ObservationStatus {
    const draw = this.random.float();
    if (draw >= 0.013) return ObservationStatus.Final;
    if (draw < 0.004) return ObservationStatus.Amended;
    if (draw < 0.007) return ObservationStatus.Corrected;
    if (draw < 0.01) return ObservationStatus.Preliminary;
    return ObservationStatus.EnteredInError;
  }

  lab(test: LabTest, value: number, at: number, encounterId: string | null, panelId: string | null = null, unit = test.unit): ObservationRow {
    return this.push({
      id: this.nextId('observation'),
      patientId: this.patientId,
      createdAt: at + RESULT_DELAY_MS,
      encounterId,
      panelId,
      category: ObservationCategory.Laboratory,
      status: this.labStatus(),
      codeSystem: CodeSystem.Loinc,
      code: test.code,
      display: test.display,
      valueNumeric: value,
      valueText: null,
      unit: unit ?? null,
      referenceLow: test.low ?? null,
      referenceHigh: test.high ?? null,
      referenceText: test.referenceText ?? null,
      interpretation: interpret(test, value),
      effectiveAt: at,
      ...NO_EXTRA_OBSERVATION_FIELDS,
    });
  }

  /** A coded result recorded as text ("Negative"); anything but the expected text is abnormal. */
  labText(test: LabTest, valueText: string, at: number, encounterId: string | null): ObservationRow {
    return this.push({
      id: this.nextId('observation'),
      patientId: this.patientId,
      createdAt: at + RESULT_DELAY_MS,
      encounterId,
      panelId: null,
      category: ObservationCategory.Laboratory,
      status: this.labStatus(),
      codeSystem: CodeSystem.Loinc,
      code: test.code,
      display: test.display,
      valueNumeric: null,
      valueText,
      unit: null,
      referenceLow: null,
      referenceHigh: null,
      referenceText: test.referenceText ?? null,
      interpretation: valueText === test.referenceText ? Interpretation.Normal : Interpretation.Abnormal,
      effectiveAt: at,
      ...NO_EXTRA_OBSERVATION_FIELDS,
    });
  }

  vital(vital: Vital, value: number, at: number, encounterId: string | null, panelId: string | null = null): ObservationRow {
    return this.push({
      id: this.nextId('observation'),
      patientId: this.patientId,
      createdAt: at,
      encounterId,
      panelId,
      category: ObservationCategory.VitalSigns,
      status: ObservationStatus.Final,
      codeSystem: CodeSystem.Loinc,
      code: vital.code,
      display: vital.display,
      valueNumeric: value,
      valueText: null,
      unit: vital.unit,
      referenceLow: null,
      referenceHigh: null,
      referenceText: null,
      interpretation: null,
      effectiveAt: at,
      ...NO_EXTRA_OBSERVATION_FIELDS,
    });
  }

  smokingStatus(status: SmokingStatus, at: number, encounterId: string | null): ObservationRow {
    return this.push({
      id: this.nextId('observation'),
      patientId: this.patientId,
      createdAt: at,
      encounterId,
      panelId: null,
      category: ObservationCategory.SocialHistory,
      status: ObservationStatus.Final,
      codeSystem: CodeSystem.Loinc,
      code: SMOKING_STATUS.code,
      display: SMOKING_STATUS.display,
      valueNumeric: null,
      valueText: status,
      unit: null,
      referenceLow: null,
      referenceHigh: null,
      referenceText: null,
      interpretation: null,
      effectiveAt: at,
      ...NO_EXTRA_OBSERVATION_FIELDS,
    });
  }

  /**
   * The final report of an imaging study (category imaging), its impression as text. Ids have their own
   * kind, so adding reports leaves the ids of every other observation as they were.
   */
  imagingReport(study: ImagingStudy, impression: string, at: number, encounterId: string | null): ObservationRow {
    return this.push({
      id: this.nextId('imaging'),
      patientId: this.patientId,
      createdAt: at + RESULT_DELAY_MS,
      encounterId,
      panelId: null,
      category: ObservationCategory.Imaging,
      status: ObservationStatus.Final,
      codeSystem: CodeSystem.Loinc,
      code: study.code,
      display: study.display,
      valueNumeric: null,
      valueText: impression,
      unit: null,
      referenceLow: null,
      referenceHigh: null,
      referenceText: null,
      interpretation: null,
      effectiveAt: at,
      ...NO_EXTRA_OBSERVATION_FIELDS,
    });
  }

  private push(fields: Omit<ObservationRow, 'categorySystem'>): ObservationRow {
    const row = { ...fields, categorySystem: OBSERVATION_CATEGORY_SYSTEM };
    this.record.observations.push(row);
    return row;
  }
}

export function interpret(test: LabTest, value: number): Interpretation {
  const critical = CRITICAL[test.code];
  if (critical?.high !== undefined && value >= critical.high) return Interpretation.CriticalHigh;
  if (critical?.low !== undefined && value <= critical.low) return Interpretation.CriticalLow;
  if (test.high !== undefined && value > test.high) return Interpretation.High;
  if (test.low !== undefined && value < test.low) return Interpretation.Low;
  return Interpretation.Normal;
}
