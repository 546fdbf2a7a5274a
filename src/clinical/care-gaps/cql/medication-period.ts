import { MedicationRow } from '../../../cohort/chart.types';
import { addDays } from '../../shared/clinical-dates';
import { DayOf } from '../../shared/clinical-day';
import { closed, DayInterval } from './day-interval';

/** CumulativeMedicationDuration `ToDaily(frequency, period)`: hours per unit, singular or plural, UCUM or word. */
const HOURS_PER_UNIT: Record<string, number> = {
  s: 1 / 3600, second: 1 / 3600, seconds: 1 / 3600,
  min: 1 / 60, minute: 1 / 60, minutes: 1 / 60,
  h: 1, hour: 1, hours: 1,
  d: 24, day: 24, days: 24,
  wk: 24 * 7, week: 24 * 7, weeks: 24 * 7,
  mo: 24 * 30, month: 24 * 30, months: 24 * 30,
  a: 24 * 365, year: 24 * 365, years: 24 * 365,
};

function dosesPerDay(frequency: number | null, period: number | null, unit: string | null, timesOfDay: number): number {
  if (frequency !== null && period !== null && period > 0 && unit !== null && HOURS_PER_UNIT[unit] !== undefined) {
    return frequency * (24 / (period * HOURS_PER_UNIT[unit]));
  }
  return timesOfDay > 0 ? timesOfDay : 1;
}

/**
 * CumulativeMedicationDuration 4.1.000 `medicationRequestPeriod()`: the days a MedicationRequest
 * covers. Start: timing bounds start, else authoredOn, else the dispense validity start. Length:
 * the expected supply duration, else quantity ÷ (dose × doses per day), times (1 + refills); without
 * either, up to the bounds' end; otherwise unknown (null).
 */
export function medicationRequestPeriod(row: MedicationRow, day: DayOf): DayInterval | null {
  const supply = row.supply;
  const startDate = supply?.boundsStart ?? (row.authoredAt ? day(row.authoredAt) : null) ?? supply?.validityStart ?? null;
  if (startDate === null || !supply) return null;
  // `singleton from R.dosageInstruction`: more than one instruction has no single dose to divide by.
  const single = supply.dosageCount <= 1;
  const perDay = single ? dosesPerDay(supply.frequency, supply.period, supply.periodUnit, supply.timesOfDay) : null;
  const byQuantity =
    supply.quantity !== null && single && supply.dose !== null && perDay !== null && supply.dose * perDay > 0
      ? supply.quantity / (supply.dose * perDay)
      : null;
  const days = supply.expectedSupplyDays ?? byQuantity;
  if (days !== null) {
    const total = days * (1 + (supply.refills ?? 0));
    return closed(startDate, addDays(startDate, Math.max(0, Math.floor(total - 1))));
  }
  if (supply.boundsEnd !== null) return closed(startDate, supply.boundsEnd);
  return null;
}
