import { citationId, ObservationRow } from '../../../../cohort/chart.types';
import { AllergyClinicalStatus } from '../../../../cohort/enum';
import { dayOf } from '../../shared/clinical-dates';
import { medicationOverlaps, numericValue } from '../../shared/chart-rows';
import { inValueSet } from '../../shared/value-set';
import { MeasureOutcome } from '../care-gap.types';
import {
  cite,
  closedGap,
  conditionsBy,
  conditionsDuring,
  excluded,
  MeasureContext,
  notApplicable,
  noVisit,
  openGap,
} from '../measure-context';
import {
  ASCVD_DIAGNOSIS,
  ASCVD_PROCEDURE,
  DIABETES,
  ESRD_OR_CKD_STAGE_5,
  FAMILIAL_HYPERCHOLESTEROLEMIA,
  LDL_CHOLESTEROL,
  STATIN_ALLERGEN,
  STATIN_THERAPY,
} from '../value-sets';

const LDL_THRESHOLD_MG_DL = 190;
const TO_CLOSE = 'A statin order (low, moderate or high intensity) active at some time in the measurement period.';

/**
 * CMS347v7 Statin Therapy for the Prevention and Treatment of Cardiovascular Disease. The patient is
 * in the denominator through the first population that applies: (1) clinical ASCVD at any age;
 * (2) ≥ 20 at the start of the period with any LDL-C ≥ 190 mg/dL or familial hypercholesterolaemia;
 * (3) 40–75 at the start of the period with diabetes; each with a visit in the period. Closed by a
 * statin order overlapping the period. A refusal written only in a note is not a coded exception.
 */
export function evaluateCms347(ctx: MeasureContext): MeasureOutcome {
  const population = denominatorPopulation(ctx);
  if (!population) {
    return notApplicable(
      'not-in-denominator',
      'None of the three populations applies: no clinical ASCVD, no LDL-C of 190 mg/dL or more (nor familial ' +
        'hypercholesterolaemia) at 20 or older, and no diabetes at 40–75.',
    );
  }
  if (!ctx.visit) return noVisit();
  const exclusion = excluded(ctx, ESRD_OR_CKD_STAGE_5) ?? statinAllergy(ctx);
  if (exclusion) return exclusion;

  const denominator = [...population.evidence, cite.enc(ctx.visit)];
  const statins = ctx.chart.medications.filter((row) => inValueSet(row, STATIN_THERAPY) && medicationOverlaps(row, ctx.period));
  if (statins.length > 0) {
    return closedGap(
      `${population.label}; a statin order is active during the measurement period.`,
      [...denominator, ...statins.map((row) => citationId('med', row.id))],
      'Nothing now; the next period needs a statin order active in it too.',
    );
  }
  return openGap('not-found', `${population.label}; no statin order overlaps the measurement period.`, denominator, TO_CLOSE);
}

interface Population {
  label: string;
  evidence: string[];
}

function denominatorPopulation(ctx: MeasureContext): Population | null {
  const ascvd = [
    ...conditionsBy(ctx, ASCVD_DIAGNOSIS).map(cite.cond),
    ...ctx.procedures.filter((row) => inValueSet(row, ASCVD_PROCEDURE)).map(cite.proc),
  ];
  if (ascvd.length > 0) return { label: 'Population 1 (clinical ASCVD)', evidence: ascvd };

  if (ctx.ageAtStart >= 20) {
    const highLdl = ctx.results.filter((row) => inValueSet(row, LDL_CHOLESTEROL) && (ldlMgPerDl(row) ?? 0) >= LDL_THRESHOLD_MG_DL);
    const familial = conditionsBy(ctx, FAMILIAL_HYPERCHOLESTEROLEMIA);
    if (highLdl.length > 0 || familial.length > 0) {
      return {
        label: 'Population 2 (LDL-C ≥ 190 mg/dL or familial hypercholesterolaemia, age ≥ 20)',
        evidence: [...familial.map(cite.cond), ...highLdl.map(cite.obs)],
      };
    }
  }
  if (ctx.ageAtStart >= 40 && ctx.ageAtStart <= 75) {
    const diabetes = conditionsDuring(ctx, DIABETES);
    if (diabetes.length > 0) return { label: 'Population 3 (diabetes, age 40–75)', evidence: diabetes.map(cite.cond) };
  }
  return null;
}

/** LDL-C in mg/dL; mmol/L is converted with the cholesterol factor 38.67. */
export function ldlMgPerDl(row: ObservationRow): number | null {
  const value = numericValue(row);
  if (value === null) return null;
  const unit = (row.unit ?? 'mg/dL').trim().toLowerCase();
  if (unit === 'mg/dl') return value;
  if (unit === 'mmol/l') return value * 38.67;
  return null;
}

/** Denominator exception: an active statin allergy recorded on or before the end of the period. */
function statinAllergy(ctx: MeasureContext): MeasureOutcome | null {
  const allergies = ctx.chart.allergies.filter(
    (row) =>
      row.clinicalStatus === AllergyClinicalStatus.Active && inValueSet(row, STATIN_ALLERGEN) && dayOf(row.recordedAt) <= ctx.period.end,
  );
  return allergies.length === 0
    ? null
    : notApplicable('denominator-exclusion', 'Excepted by an active statin allergy.', allergies.map((row) => citationId('allergy', row.id)));
}
