import { MISSING_DATA_ELEMENTS, MissingDataElement } from './missing-data.types';

/**
 * What "present" means, per element: the one rule `checkMissingData` applies and the tool states.
 * - `recorded`: demographics and contact; present when recorded at all, they do not go stale.
 * - `recent`: measurements, visits and condition-driven labs; present when recorded in the 12 months
 *   ending on the as-of day, `stale` when only earlier. A weight of two years ago is not today's.
 * - `current-entry`: the allergy, problem and medication lists; present when the list has a current
 *   entry, however old (an allergy recorded in 2001 is still the patient's allergy; an active
 *   problem or order is current by its status, not its date). `lastSeen` is the latest entry's date,
 *   so a reader can judge how long ago the list was last touched. They never go stale.
 */
export type PresenceRule = 'recorded' | 'recent' | 'current-entry';

export const PRESENCE_RULE: Readonly<Record<MissingDataElement, PresenceRule>> = {
  name: 'recorded',
  'birth-date': 'recorded',
  sex: 'recorded',
  address: 'recorded',
  phone: 'recorded',
  email: 'recorded',
  'blood-pressure': 'recent',
  weight: 'recent',
  height: 'recent',
  bmi: 'recent',
  'smoking-status': 'recent',
  allergies: 'current-entry',
  'problem-list': 'current-entry',
  'medication-list': 'current-entry',
  'encounter-12m': 'recent',
  hba1c: 'recent',
  egfr: 'recent',
  lipids: 'recent',
};

const MEANING: Record<PresenceRule, string> = {
  recorded: 'present when recorded at all (they do not go stale)',
  recent: 'present when recorded in the 12 months ending on that day, stale when only earlier',
  'current-entry':
    'present when the list has a current entry, whatever its date (any allergy row, "no known allergy" included; an active problem; an active medication order), with the date of its latest entry as lastSeen; they never go stale',
};

/** The elements a rule applies to, in report order. */
export function elementsWithRule(rule: PresenceRule): MissingDataElement[] {
  return MISSING_DATA_ELEMENTS.filter((element) => PRESENCE_RULE[element] === rule);
}

/** The answer's statement of what present, stale and missing mean, element by element. */
export function describePresence(asOf: string): string {
  const clauses = (['recorded', 'recent', 'current-entry'] as const).map((rule) => `${elementsWithRule(rule).join(', ')}: ${MEANING[rule]}`);
  return `Checked as of ${asOf}. ${clauses.join('. ')}. Missing means never recorded here; not-applicable, a condition-driven lab the record gives no reason to expect.`;
}
