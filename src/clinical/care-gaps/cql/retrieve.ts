import {
  AdverseEventRow,
  AllergyRow,
  citationId,
  CitationKind,
  ConditionRow,
  EncounterRow,
  MedicationRow,
  ObservationRow,
  PatientChart,
  ProcedureRow,
  RequestRow,
} from '../../../cohort/chart.types';
import { RequestKind } from '../../../cohort/enum';
import { inValueSet } from '../../../terminology';
import { ageOn, Period } from '../../shared/clinical-dates';
import { DayOf } from '../../shared/clinical-day';
import { closed, DayInterval } from './day-interval';
import { isOutsideEncounterWindow } from './encounter-retrieves';
import { isDeclaredObservationCode, isDeclaredObservationValueSet, isOutsideDeclaredWindow } from './observation-retrieves';

/** A measure retrieved observations not declared in `observation-retrieves.ts`: declare them there. */
export class UndeclaredRetrieveError extends Error {
  constructor(what: string) {
    super(`A measure retrieved ${what}, which observation-retrieves.ts does not declare`);
    this.name = 'UndeclaredRetrieveError';
  }
}

/**
 * What one measure evaluation reads: the chart, the measurement period as days, the clinic's
 * day-of function, and CQL retrieves (`[Condition: "Diabetes"]`) memoised per value set, so the six
 * measures and their shared libraries filter each record type once per value set, not once per use.
 */
export class MeasureContext {
  readonly period: DayInterval;
  readonly ageAtStart: number;
  readonly ageAtEnd: number;
  private readonly memo = new Map<string, unknown[]>();
  private windowedEncounters: EncounterRow[] | undefined;
  private encountersById: Map<string, EncounterRow> | undefined;

  constructor(
    readonly chart: PatientChart,
    readonly measurementPeriod: Period,
    readonly day: DayOf,
  ) {
    this.period = closed(measurementPeriod.start, measurementPeriod.end);
    // CQL `AgeInYearsAt(date from start/end of "Measurement Period")`.
    this.ageAtStart = ageOn(chart.patient.birthDate, measurementPeriod.start);
    this.ageAtEnd = ageOn(chart.patient.birthDate, measurementPeriod.end);
  }

  private retrieve<T>(key: string, build: () => T[]): T[] {
    let rows = this.memo.get(key) as T[] | undefined;
    if (!rows) {
      rows = build();
      this.memo.set(key, rows);
    }
    return rows;
  }

  /**
   * The chart's encounters the measures may see: none that ended before the period, but those of
   * the all-time codes (`encounter-retrieves.ts`; the recompute reads no others).
   */
  private get encountersInWindow(): EncounterRow[] {
    this.windowedEncounters ??= this.chart.encounters.filter((row) => !isOutsideEncounterWindow(row, this.measurementPeriod, this.day));
    return this.windowedEncounters;
  }

  /** `[Encounter: VS]`: by `Encounter.type`, of the encounters in the window. */
  encounters(oid: string): EncounterRow[] {
    return this.retrieve(`enc|${oid}`, () =>
      this.encountersInWindow.filter((row) => inValueSet({ codeSystem: row.typeSystem, code: row.typeCode }, oid)),
    );
  }

  conditions(oid: string): ConditionRow[] {
    return this.retrieve(`cond|${oid}`, () => this.chart.conditions.filter((row) => inValueSet(row, oid)));
  }

  /** `[Observation: VS]`; only value sets declared in `observation-retrieves.ts` (the recompute reads no others). */
  observations(oid: string): ObservationRow[] {
    if (!isDeclaredObservationValueSet(oid)) throw new UndeclaredRetrieveError(`observations of value set ${oid}`);
    return this.retrieve(`obs|${oid}`, () => this.chart.observations.filter((row) => inValueSet(row, oid)));
  }

  /**
   * `[Observation: "<direct-reference code>"]`, of one or more codes of `system`, in chart order;
   * only codes declared in `observation-retrieves.ts`, and of the period-only ones only results
   * whose latest day is not before the period (the window the recompute reads).
   */
  observationsCoded(system: string, ...codes: string[]): ObservationRow[] {
    const undeclared = codes.find((code) => !isDeclaredObservationCode(system, code));
    if (undeclared !== undefined) throw new UndeclaredRetrieveError(`observations coded ${system}|${undeclared}`);
    return this.retrieve(`obs|${system}|${codes.join('|')}`, () =>
      this.chart.observations.filter(
        (row) => row.codeSystem === system && codes.includes(row.code) && !isOutsideDeclaredWindow(row, this.measurementPeriod, this.day),
      ),
    );
  }

  procedures(oid: string): ProcedureRow[] {
    return this.retrieve(`proc|${oid}`, () => this.chart.procedures.filter((row) => inValueSet(row, oid)));
  }

  /**
   * `[MedicationRequest: VS]`: orders to give the medication (not QI-Core MedicationNotRequested).
   * The retrieve filters on the request's own `medication` concept: an order coded only through a
   * referenced Medication is not found, as in the stewards' engine and expected results (their case
   * "DementiaMedAsReferenceCQLIT412" expects no exclusion). Such rows are remembered for a note.
   */
  medicationRequests(oid: string): MedicationRow[] {
    this.medicationSetsRead.add(oid);
    return this.retrieve(`med|${oid}`, () => this.chart.medications.filter((row) => !row.doNotPerform && !row.codeFromReference && inValueSet(row, oid)));
  }

  /** `[MedicationNotRequested: VS]`: a recorded decision not to order it (same rule for referenced codes). */
  medicationsNotRequested(oid: string): MedicationRow[] {
    this.medicationSetsRead.add(oid);
    return this.retrieve(`mednot|${oid}`, () => this.chart.medications.filter((row) => row.doNotPerform && !row.codeFromReference && inValueSet(row, oid)));
  }

  /** The medication value sets the current measure's retrieves read (see `beginMeasure`). */
  private medicationSetsRead = new Set<string>();
  private readonly definitions = new Map<string, { finding: Finding; medicationSets: readonly string[] }>();

  /**
   * A shared library's definition (`"Has Hospice Services"`), computed once for all the measures
   * that include it. A later measure reusing it is still told which medication value sets it read.
   */
  once(name: string, build: () => Finding): Finding {
    const cached = this.definitions.get(name);
    if (cached) {
      for (const oid of cached.medicationSets) this.medicationSetsRead.add(oid);
      return cached.finding;
    }
    const outer = this.medicationSetsRead;
    this.medicationSetsRead = new Set();
    const finding = build();
    const medicationSets = [...this.medicationSetsRead];
    this.medicationSetsRead = outer;
    for (const oid of medicationSets) outer.add(oid);
    this.definitions.set(name, { finding, medicationSets });
    return finding;
  }

  /** Starts one measure's evaluation: what `medicationsPassedOver` reports is that measure's alone. */
  beginMeasure(): void {
    this.medicationSetsRead = new Set();
  }

  /**
   * Orders coded only through a referenced Medication whose code is in a value set the current
   * measure read: records the measure's retrieves passed over, for a data-quality note.
   */
  medicationsPassedOver(): { row: MedicationRow; valueSet: string }[] {
    const found: { row: MedicationRow; valueSet: string }[] = [];
    for (const row of this.chart.medications) {
      if (!row.codeFromReference) continue;
      const valueSet = [...this.medicationSetsRead].find((oid) => inValueSet(row, oid));
      if (valueSet) found.push({ row, valueSet });
    }
    return found;
  }

  serviceRequests(oid: string): RequestRow[] {
    return this.retrieve(`sreq|${oid}`, () =>
      this.chart.requests.filter((row) => row.kind === RequestKind.Service && inValueSet(row, oid)),
    );
  }

  deviceRequests(oid: string): RequestRow[] {
    return this.retrieve(`dreq|${oid}`, () =>
      this.chart.requests.filter((row) => row.kind === RequestKind.Device && inValueSet(row, oid)),
    );
  }

  allergies(oid: string): AllergyRow[] {
    return this.retrieve(`allergy|${oid}`, () => this.chart.allergies.filter((row) => inValueSet(row, oid)));
  }

  adverseEvents(oid: string): AdverseEventRow[] {
    return this.retrieve(`ae|${oid}`, () => this.chart.adverseEvents.filter((row) => inValueSet(row, oid)));
  }

  /** The encounter a record was made in (CQL `getEncounter()`), by id, of those in the window; indexed once per evaluation. */
  encounterById(id: string | null): EncounterRow | undefined {
    if (id === null) return undefined;
    this.encountersById ??= new Map(this.encountersInWindow.map((row) => [row.id, row]));
    return this.encountersById.get(id);
  }
}

/**
 * A criterion's outcome with the rows that decided it: the evidence an answer cites. `met` false
 * with rows means the rows were read and found wanting (e.g. the HbA1c above 9 %).
 */
export interface Finding {
  met: boolean;
  evidence: string[];
}

export const NOT_MET: Finding = Object.freeze({ met: false, evidence: [] }) as Finding;

export const cite = {
  enc: (row: { id: string }) => citationId('enc', row.id),
  obs: (row: { id: string }) => citationId('obs', row.id),
  cond: (row: { id: string }) => citationId('cond', row.id),
  proc: (row: { id: string }) => citationId('proc', row.id),
  med: (row: { id: string }) => citationId('med', row.id),
  req: (row: { id: string }) => citationId('req', row.id),
  allergy: (row: { id: string }) => citationId('allergy', row.id),
  ae: (row: { id: string }) => citationId('ae', row.id),
} satisfies Record<Exclude<CitationKind, 'pat' | 'note'>, (row: { id: string }) => string>;

/** `exists (rows where …)` with the matching rows as evidence. */
export function anyOf<T extends { id: string }>(rows: readonly T[], kind: keyof typeof cite, test: (row: T) => boolean): Finding {
  const evidence: string[] = [];
  for (const row of rows) if (test(row)) evidence.push(cite[kind](row));
  return { met: evidence.length > 0, evidence };
}

/** `a or b or …`: met when any is; the evidence of every criterion that was met. */
export function either(...findings: Finding[]): Finding {
  const met = findings.filter((finding) => finding.met);
  return { met: met.length > 0, evidence: met.flatMap((finding) => finding.evidence) };
}
