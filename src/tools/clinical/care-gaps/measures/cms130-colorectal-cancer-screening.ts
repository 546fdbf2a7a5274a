import { addYears, dayOf, latest, Period } from '../../shared/clinical-dates';
import { hasValue } from '../../shared/chart-rows';
import { inValueSet, ValueSet } from '../../shared/value-set';
import { MeasureOutcome } from '../care-gap.types';
import { cite, closedGap, excluded, MeasureContext, noVisit, openGap, outsideAges } from '../measure-context';
import {
  COLONOSCOPY,
  COLORECTAL_CANCER_OR_COLECTOMY,
  CT_COLONOGRAPHY,
  FECAL_OCCULT_BLOOD_TEST,
  FLEXIBLE_SIGMOIDOSCOPY,
  STOOL_DNA_FIT,
} from '../value-sets';

/** Each screening test and how many years before the period it still counts (CMS130v12). */
interface Modality {
  /** With its article, as it reads in a sentence. */
  name: string;
  valueSet: ValueSet;
  yearsBeforePeriod: number;
  lifetime: string;
  /** Stool tests count only with a recorded result. */
  needsResult: boolean;
}

export const COLORECTAL_MODALITIES: readonly Modality[] = [
  { name: 'an FOBT/FIT', valueSet: FECAL_OCCULT_BLOOD_TEST, yearsBeforePeriod: 0, lifetime: '1 year', needsResult: true },
  { name: 'a stool DNA-FIT', valueSet: STOOL_DNA_FIT, yearsBeforePeriod: 2, lifetime: '3 years', needsResult: true },
  { name: 'a CT colonography', valueSet: CT_COLONOGRAPHY, yearsBeforePeriod: 4, lifetime: '5 years', needsResult: false },
  { name: 'a flexible sigmoidoscopy', valueSet: FLEXIBLE_SIGMOIDOSCOPY, yearsBeforePeriod: 4, lifetime: '5 years', needsResult: false },
  { name: 'a colonoscopy', valueSet: COLONOSCOPY, yearsBeforePeriod: 9, lifetime: '10 years', needsResult: false },
];

const TO_CLOSE =
  'Any one of: a FOBT/FIT in the period; a stool DNA-FIT in it or the 2 years before; a CT colonography or flexible ' +
  'sigmoidoscopy in it or the 4 years before; a colonoscopy in it or the 9 years before.';

interface Screening {
  modality: Modality;
  day: string;
  citation: string;
}

/**
 * CMS130v12 Colorectal Cancer Screening. Denominator: 46–75 at the end of the period (45 at its
 * start) with a visit in it. Numerator: any modality within its own look-back (`COLORECTAL_MODALITIES`).
 * A test may be filed as a procedure or an observation; both are read for every modality.
 */
export function evaluateCms130(ctx: MeasureContext): MeasureOutcome {
  const early = outsideAges(ctx, 46, 75, 'end');
  if (early) return early;
  if (!ctx.visit) return noVisit();
  const exclusion = excluded(ctx, COLORECTAL_CANCER_OR_COLECTOMY);
  if (exclusion) return exclusion;

  const denominator = [cite.enc(ctx.visit)];
  const screenings = COLORECTAL_MODALITIES.flatMap((modality) => screeningsOf(ctx, modality));
  const current = latest(
    screenings.filter((row) => row.day >= windowOf(ctx, row.modality).start),
    (row) => row.day,
  );
  if (current) {
    return closedGap(
      `Screened: ${current.modality.name} within its window (${current.modality.lifetime}).`,
      [...denominator, current.citation],
      `Nothing now; it opens again ${current.modality.lifetime} after that test unless another screening is recorded.`,
    );
  }
  const expired = latest(screenings, (row) => row.day);
  return expired
    ? openGap(
        'date-out-of-range',
        `The last screening, ${expired.modality.name}, is older than its window (${expired.modality.lifetime}).`,
        [...denominator, expired.citation],
        TO_CLOSE,
      )
    : openGap('not-found', 'No colorectal cancer screening recorded.', denominator, TO_CLOSE);
}

function windowOf(ctx: MeasureContext, modality: Modality): Period {
  return { start: addYears(ctx.period.start, -modality.yearsBeforePeriod), end: ctx.period.end };
}

function screeningsOf(ctx: MeasureContext, modality: Modality): Screening[] {
  const procedures = ctx.procedures
    .filter((row) => inValueSet(row, modality.valueSet))
    .map((row) => ({ modality, day: dayOf(row.performedAt), citation: cite.proc(row) }));
  const results = ctx.results
    .filter((row) => inValueSet(row, modality.valueSet) && (!modality.needsResult || hasValue(row)))
    .map((row) => ({ modality, day: dayOf(row.effectiveAt), citation: cite.obs(row) }));
  return [...procedures, ...results];
}
