import { DosageTiming, MedicationSupply } from '../cohort/chart.types';
import { asArray, asNumber, asObject, asObjects, asString, Json } from './json';
import { parseFhirDate } from './text';

/** Days per unit of a supply duration, UCUM codes and their word forms (as CQL's duration in days counts them). */
const DAYS_PER_UNIT: Record<string, number> = {
  d: 1, day: 1, days: 1,
  wk: 7, week: 7, weeks: 7,
  mo: 30, month: 30, months: 30,
  a: 365, year: 365, years: 365,
};

const dayOf = (value: unknown): string | null => {
  const parsed = parseFhirDate(value);
  return parsed.ok ? parsed.day : null;
};

/** A supply duration (`expectedSupplyDuration`, `daysSupply`) in days: null when absent, undefined in a unit that is not a day count. */
export function durationDays(duration: Json | undefined): number | null | undefined {
  const value = asNumber(duration?.value);
  if (value === undefined) return null;
  const unit = (asString(duration?.code) ?? asString(duration?.unit))?.trim().toLowerCase();
  const factor = unit === undefined ? undefined : DAYS_PER_UNIT[unit];
  return factor === undefined ? undefined : value * factor;
}

/** The first dosage's timing and dose as given (`DosageTiming`); null when there is no dosage. */
export function dosageTiming(resource: Json): DosageTiming | null {
  const dosages = asObjects(resource.dosageInstruction);
  if (dosages.length === 0) return null;
  const repeat = asObject(asObject(dosages[0].timing)?.repeat);
  const doseAndRate = asObjects(dosages[0].doseAndRate)[0];
  return {
    frequency: asNumber(repeat?.frequencyMax) ?? asNumber(repeat?.frequency) ?? null,
    period: asNumber(repeat?.period) ?? null,
    periodUnit: asString(repeat?.periodUnit)?.trim() || null,
    timesOfDay: asArray(repeat?.timeOfDay).length,
    dose: asNumber(asObject(doseAndRate?.doseQuantity)?.value) ?? asNumber(asObject(asObject(doseAndRate?.doseRange)?.high)?.value) ?? null,
    dosageCount: dosages.length,
  };
}

/** The empty timing of a resource that has a dispense part and no dosage. */
const NO_DOSAGE: DosageTiming = { frequency: null, period: null, periodUnit: null, timesOfDay: 0, dose: null, dosageCount: 0 };

/**
 * The raw dispense and timing elements of a MedicationRequest (`MedicationSupply`), for the
 * cumulative-medication-duration logic of the measures; null when the request has neither a dosage
 * nor a dispense request. Only what the source says: nothing is derived here.
 */
export function medicationSupply(resource: Json, warnings: string[]): MedicationSupply | null {
  const timing = dosageTiming(resource);
  const dispense = asObject(resource.dispenseRequest);
  if (!timing && !dispense) return null;
  const bounds = asObject(asObject(asObject(asObjects(resource.dosageInstruction)[0]?.timing)?.repeat)?.boundsPeriod);
  const days = durationDays(asObject(dispense?.expectedSupplyDuration));
  if (days === undefined) warnings.push('expectedSupplyDuration in a unit that is no duration (left empty)');
  return {
    boundsStart: dayOf(bounds?.start),
    boundsEnd: dayOf(bounds?.end),
    validityStart: dayOf(asObject(dispense?.validityPeriod)?.start),
    expectedSupplyDays: days ?? null,
    quantity: asNumber(asObject(dispense?.quantity)?.value) ?? null,
    refills: asNumber(dispense?.numberOfRepeatsAllowed) ?? null,
    ...(timing ?? NO_DOSAGE),
  };
}
