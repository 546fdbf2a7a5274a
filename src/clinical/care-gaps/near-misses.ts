import { CodeSystem } from '../../cohort/enum';
import { inValueSet, valueSetInfo, VS } from '../../terminology';
import { CareGapResult, GroupResult, MeasureId } from './care-gap.types';
import { cite, MeasureContext } from './cql/retrieve';

/**
 * Near misses: the record holds the condition a measure looks for, coded with a concept the
 * measure's value set does not contain (usually a broader one). Synthea, for one, codes
 * hypertension as SNOMED CT 38341003 "Hypertensive disorder", outside CMS165's Essential
 * Hypertension set, so every Synthea hypertensive is "not applicable". The measure stays as the
 * stewards wrote it; the answer says why, naming the code and the value set, so someone can recode.
 */
interface Probe {
  measures: readonly MeasureId[];
  valueSet: string;
  /** Which initial-population criterion the value set feeds (the note is made only when that one failed). */
  criterion: string;
  /** Words that mark a condition's display as a candidate (case-insensitive). */
  words: RegExp;
}

const PROBES: readonly Probe[] = [
  { measures: ['CMS165'], valueSet: VS['Essential Hypertension'], criterion: 'essential-hypertension', words: /hypertens/i },
  { measures: ['CMS122', 'CMS951'], valueSet: VS['Diabetes'], criterion: 'diabetes', words: /diabet/i },
];

const SYSTEM_NAMES: Record<string, string> = {
  [CodeSystem.SnomedCt]: 'SNOMED CT',
  [CodeSystem.Icd10Cm]: 'ICD-10-CM',
  [CodeSystem.Icd9Cm]: 'ICD-9-CM',
};

export function nearMisses(ctx: MeasureContext, measureId: MeasureId, groups: GroupResult[]): CareGapResult['dataQuality'] {
  const notes: CareGapResult['dataQuality'] = [];
  for (const probe of PROBES) {
    if (!probe.measures.includes(measureId)) continue;
    if (!groups.some((group) => group.reason.code === `initial-population:${probe.criterion}`)) continue;
    const { title, oid } = valueSetInfo(probe.valueSet);
    for (const row of ctx.chart.conditions) {
      if (!probe.words.test(row.display) || inValueSet(row, probe.valueSet)) continue;
      const system = SYSTEM_NAMES[row.codeSystem] ?? row.codeSystem;
      notes.push({
        code: 'near-miss-code',
        text:
          `A condition is coded ${system} ${row.code} ("${row.display}"), which the measure’s ${title} value set (${oid}) does not contain, ` +
          'so it does not count; if it is that condition, code it with a concept from the set.',
        evidence: [cite.cond(row)],
      });
    }
  }
  return notes;
}

/**
 * Orders the measure's medication retrieves passed over because their code came from a referenced
 * Medication (`medicationReference`): the stewards' logic filters on the request's own concept, and
 * their expected results (case "DementiaMedAsReferenceCQLIT412", CQL tooling ticket CQLIT-412)
 * count such an order as absent. Vigil follows them and says so, so someone can code the order.
 */
export function medicationsByReference(ctx: MeasureContext): CareGapResult['dataQuality'] {
  return ctx.medicationsPassedOver().map(({ row, valueSet }) => {
    const { title, oid } = valueSetInfo(valueSet);
    return {
      code: 'medication-by-reference' as const,
      text:
        `A medication order names its drug only through a referenced Medication (code ${row.code}, in the ${title} value set, ${oid}); ` +
        'the measure reads the order’s own medication code, so it does not count. Code the order itself to have it count.',
      evidence: [cite.med(row)],
    };
  });
}
