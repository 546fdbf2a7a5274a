import { ObservationRow } from '../../../cohort/chart.types';
import { CodeSystem } from '../../../cohort/enum';
import { inValueSet, VS } from '../../../terminology';
import { addYears } from '../../shared/clinical-dates';
import { closed, dayDuring, during, endOf, endsDuring, endsOnOrBefore, holds, overlaps, startsDuring } from './day-interval';
import { medicationRequestPeriod } from './medication-period';
import { effectiveInterval, encounterPeriod, performedInterval, prevalenceInterval } from './qicore';
import { anyOf, cite, either, Finding, MeasureContext, NOT_MET } from './retrieve';
import { isAssessmentPerformed, isEncounterPerformed, isMedicationActive, isOrder, isProcedurePerformed, isSymptom } from './status';

/**
 * The libraries every measure includes: Hospice 6.12.000, PalliativeCare 1.11.000,
 * AdvancedIllnessandFrailty 1.16.000 and AdultOutpatientEncounters 4.11.000. Each function names the
 * CQL definition it implements; results are memoised per context (several measures ask for them).
 */

const SNOMED = CodeSystem.SnomedCt;
const LOINC = CodeSystem.Loinc;

const HOSPICE_DISCHARGES = new Set(['428371000124100', '428361000124107']);

const valueIs = (row: ObservationRow, system: string, code: string) => row.valueSystem === system && row.valueCode === code;

const once = (ctx: MeasureContext, name: string, build: () => Finding): Finding => ctx.once(name, build);

/** Hospice `"Has Hospice Services"`. */
export function hasHospiceServices(ctx: MeasureContext): Finding {
  return once(ctx, 'hospice', () => {
    const { period, day } = ctx;
    return either(
      anyOf(ctx.encounters(VS['Encounter Inpatient']), 'enc', (row) =>
        isEncounterPerformed(row) &&
        row.dischargeDispositionSystem === SNOMED &&
        HOSPICE_DISCHARGES.has(row.dischargeDispositionCode ?? '') &&
        holds(endsDuring(encounterPeriod(row, day), period)),
      ),
      anyOf(ctx.encounters(VS['Hospice Encounter']), 'enc', (row) =>
        isEncounterPerformed(row) && holds(overlaps(encounterPeriod(row, day), period)),
      ),
      anyOf(ctx.observationsCoded(LOINC, '45755-6'), 'obs', (row) =>
        isAssessmentPerformed(row) && valueIs(row, SNOMED, '373066001') && holds(overlaps(effectiveInterval(row, day), period)),
      ),
      anyOf(ctx.serviceRequests(VS['Hospice Care Ambulatory']), 'req', (row) =>
        isOrder(row) && row.authoredAt !== null && holds(dayDuring(day(row.authoredAt), period)),
      ),
      anyOf(ctx.procedures(VS['Hospice Care Ambulatory']), 'proc', (row) =>
        isProcedurePerformed(row) && holds(overlaps(performedInterval(row, day), period)),
      ),
      anyOf(ctx.conditions(VS['Hospice Diagnosis']), 'cond', (row) => holds(overlaps(prevalenceInterval(row), period))),
    );
  });
}

/** PalliativeCare `"Has Palliative Care in the Measurement Period"`. */
export function hasPalliativeCare(ctx: MeasureContext): Finding {
  return once(ctx, 'palliative', () => {
    const { period, day } = ctx;
    return either(
      anyOf(ctx.observationsCoded(LOINC, '71007-9'), 'obs', (row) =>
        isAssessmentPerformed(row) && holds(overlaps(effectiveInterval(row, day), period)),
      ),
      anyOf(ctx.conditions(VS['Palliative Care Diagnosis']), 'cond', (row) => holds(overlaps(prevalenceInterval(row), period))),
      anyOf(ctx.encounters(VS['Palliative Care Encounter']), 'enc', (row) =>
        isEncounterPerformed(row) && holds(overlaps(encounterPeriod(row, day), period)),
      ),
      anyOf(ctx.procedures(VS['Palliative Care Intervention']), 'proc', (row) =>
        isProcedurePerformed(row) && holds(overlaps(performedInterval(row, day), period)),
      ),
    );
  });
}

/** AdvancedIllnessandFrailty `"Has Criteria Indicating Frailty"`. */
export function hasFrailty(ctx: MeasureContext): Finding {
  return once(ctx, 'frailty', () => {
    const { period, day } = ctx;
    return either(
      anyOf(ctx.deviceRequests(VS['Frailty Device']), 'req', (row) =>
        isOrder(row) && !row.doNotPerform && row.authoredAt !== null && holds(dayDuring(day(row.authoredAt), period)),
      ),
      anyOf(ctx.observationsCoded(LOINC, '98181-1'), 'obs', (row) =>
        isAssessmentPerformed(row) &&
        inValueSet({ codeSystem: row.valueSystem, code: row.valueCode }, VS['Frailty Device']) &&
        holds(endsDuring(effectiveInterval(row, day), period)),
      ),
      anyOf(ctx.conditions(VS['Frailty Diagnosis']), 'cond', (row) => holds(overlaps(prevalenceInterval(row), period))),
      anyOf(ctx.encounters(VS['Frailty Encounter']), 'enc', (row) =>
        isEncounterPerformed(row) && holds(overlaps(encounterPeriod(row, day), period)),
      ),
      anyOf(ctx.observations(VS['Frailty Symptom']), 'obs', (row) =>
        isSymptom(row) && holds(overlaps(effectiveInterval(row, day), period)),
      ),
    );
  });
}

/** The year before and the measurement period: `Interval[start of MP - 1 year, end of MP]`. */
const yearBeforeAndPeriod = (ctx: MeasureContext) => closed(addYears(ctx.measurementPeriod.start, -1), ctx.measurementPeriod.end);

/** `"Has Advanced Illness in Year Before or During Measurement Period"` or `"Has Dementia Medications in …"`. */
export function hasAdvancedIllnessOrDementiaMedication(ctx: MeasureContext): Finding {
  return once(ctx, 'advanced-illness', () => {
    const window = yearBeforeAndPeriod(ctx);
    return either(
      anyOf(ctx.conditions(VS['Advanced Illness']), 'cond', (row) => holds(startsDuring(prevalenceInterval(row), window))),
      anyOf(ctx.medicationRequests(VS['Dementia Medications']), 'med', (row) =>
        isMedicationActive(row) && holds(overlaps(medicationRequestPeriod(row, ctx.day), window)),
      ),
    );
  });
}

const conjunction = (...findings: Finding[]): Finding =>
  findings.every((finding) => finding.met) ? { met: true, evidence: findings.flatMap((finding) => finding.evidence) } : NOT_MET;

/** `"Is Age 66 or Older with Advanced Illness and Frailty"`. */
export function isAdvancedIllnessAndFrailty66(ctx: MeasureContext): Finding {
  if (ctx.ageAtEnd < 66) return NOT_MET;
  return conjunction(hasFrailty(ctx), hasAdvancedIllnessOrDementiaMedication(ctx));
}

/** `"Is Age 66 to 80 with Advanced Illness and Frailty or Is Age 81 or Older with Frailty"` (CMS165). */
export function isAdvancedIllnessAndFrailty66To80OrFrailty81(ctx: MeasureContext): Finding {
  if (ctx.ageAtEnd >= 81) return hasFrailty(ctx);
  if (ctx.ageAtEnd >= 66) return conjunction(hasFrailty(ctx), hasAdvancedIllnessOrDementiaMedication(ctx));
  return NOT_MET;
}

/**
 * `"Is Age 66 or Older Living Long Term in a Nursing Home"`: the last housing-status assessment
 * ending on or before the end of the period says "lives in a nursing home".
 */
export function isLongTermNursingHomeResident66(ctx: MeasureContext): Finding {
  if (ctx.ageAtEnd < 66) return NOT_MET;
  return once(ctx, 'nursing-home', () => {
    let last: ObservationRow | undefined;
    let lastEnd = '';
    for (const row of ctx.observationsCoded(LOINC, '71802-3')) {
      if (!isAssessmentPerformed(row)) continue;
      const end = endOf(effectiveInterval(row, ctx.day));
      if (!holds(endsOnOrBefore(effectiveInterval(row, ctx.day), ctx.measurementPeriod.end)) || end === null) continue;
      // `sort by end of effective asc` then Last: a later end wins; equal ends keep the later row.
      if (last === undefined || end >= lastEnd) {
        last = row;
        lastEnd = end;
      }
    }
    return last && valueIs(last, SNOMED, '160734000') ? { met: true, evidence: [cite.obs(last)] } : NOT_MET;
  });
}

const QUALIFYING_ENCOUNTER_SETS = [
  VS['Office Visit'],
  VS['Annual Wellness Visit'],
  VS['Preventive Care Services Established Office Visit, 18 and Up'],
  VS['Preventive Care Services Initial Office Visit, 18 and Up'],
  VS['Home Healthcare Services'],
  VS['Virtual Encounter'],
  VS['Telephone Visits'],
];

/** AdultOutpatientEncounters `"Qualifying Encounters"`: performed, with the period during day of MP. */
export function qualifyingEncounters(ctx: MeasureContext): Finding {
  return once(ctx, 'qualifying-encounters', () => {
    const seen = new Set<string>();
    const evidence: string[] = [];
    for (const oid of QUALIFYING_ENCOUNTER_SETS) {
      for (const row of ctx.encounters(oid)) {
        if (seen.has(row.id)) continue;
        seen.add(row.id);
        if (isEncounterPerformed(row) && holds(during(encounterPeriod(row, ctx.day), ctx.period))) evidence.push(cite.enc(row));
      }
    }
    return { met: evidence.length > 0, evidence };
  });
}


