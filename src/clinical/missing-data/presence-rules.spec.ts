import { PatientChart } from '../../cohort/chart.types';
import { CodeSystem, MedicationStatus } from '../../cohort/enum';
import { allergy, bloodPressure, chart, condition, medication, observation, visit } from '../../../test/setup/clinical/chart-builder';
import { checkMissingData, describePresence, MISSING_DATA_ELEMENTS, MissingDataElement, PRESENCE_RULE } from '.';

const AS_OF = '2026-06-30';
const DIABETES = () => condition(CodeSystem.Icd10Cm, 'E11.9', '2010-01-01');
const ATORVASTATIN = '617311';

/** A chart whose only record of `element` is dated `day` (with what makes a condition-driven lab expected). */
const RECORD_OF: Record<Exclude<MissingDataElement, 'name' | 'birth-date' | 'sex' | 'address' | 'phone' | 'email'>, (day: string) => PatientChart> = {
  'blood-pressure': (day) => chart({ observations: bloodPressure(120, 80, day) }),
  weight: (day) => chart({ observations: [observation('29463-7', 80, day)] }),
  height: (day) => chart({ observations: [observation('8302-2', 180, day)] }),
  bmi: (day) => chart({ observations: [observation('39156-5', 24.7, day)] }),
  'smoking-status': (day) => chart({ observations: [observation('72166-2', 'Never smoker', day)] }),
  allergies: (day) => chart({ allergies: [allergy(CodeSystem.SnomedCt, '716186003', day)] }),
  'problem-list': (day) => chart({ conditions: [condition(CodeSystem.Icd10Cm, 'I10', day)] }),
  'medication-list': (day) => chart({ medications: [medication(ATORVASTATIN, MedicationStatus.Active, day)] }),
  'encounter-12m': (day) => chart({ encounters: [visit(day)] }),
  hba1c: (day) => chart({ conditions: [DIABETES()], observations: [observation('4548-4', 6.1, day)] }),
  egfr: (day) => chart({ conditions: [DIABETES()], observations: [observation('62238-1', 71, day)] }),
  lipids: (day) => chart({ medications: [medication(ATORVASTATIN, MedicationStatus.Active, '2010-01-01')], observations: [observation('13457-7', 98, day)] }),
};

describe('missing_data_check presence rules', () => {
  const cases = Object.entries(RECORD_OF).flatMap(([element, build]) =>
    [
      ['one month', '2026-05-31'],
      ['13 months', '2025-05-31'],
      ['25 years', '2001-12-06'],
    ].map(([age, day]) => [element as MissingDataElement, age, day, build] as const),
  );

  it.each(cases)('%s recorded only %s before the as-of day: the status its rule gives', (element, _, day, build) => {
    const item = checkMissingData(build(day), AS_OF).find((row) => row.element === element)!;
    const withinYear = day > '2025-06-30';
    const status = PRESENCE_RULE[element] === 'recent' && !withinYear ? 'stale' : 'present';
    expect({ status: item.status, lastSeen: item.lastSeen }).toEqual({ status, lastSeen: day });
  });

  it('gives every element exactly one rule, and the lists (allergies, problems, medications) no 12-month window', () => {
    expect(Object.keys(PRESENCE_RULE).sort()).toEqual([...MISSING_DATA_ELEMENTS].sort());
    expect(MISSING_DATA_ELEMENTS.filter((element) => PRESENCE_RULE[element] === 'current-entry')).toEqual(['allergies', 'problem-list', 'medication-list']);
    expect(MISSING_DATA_ELEMENTS.filter((element) => PRESENCE_RULE[element] === 'recorded')).toEqual(['name', 'birth-date', 'sex', 'address', 'phone', 'email']);
  });

  it('states each element under the rule it is judged by, and no element twice', () => {
    const clauses = describePresence(AS_OF).split('. ').filter((clause) => /^[a-z0-9-]+(, [a-z0-9-]+)*: /.test(clause));
    const stated = new Map(clauses.flatMap((clause) => clause.slice(0, clause.indexOf(': ')).split(', ').map((element) => [element, clause] as const)));
    expect(clauses.flatMap((clause) => clause.slice(0, clause.indexOf(': ')).split(', ')).sort()).toEqual([...MISSING_DATA_ELEMENTS].sort());
    for (const element of MISSING_DATA_ELEMENTS) {
      const clause = stated.get(element)!;
      expect([element, clause.includes('in the 12 months')]).toEqual([element, PRESENCE_RULE[element] === 'recent']);
      expect([element, clause.includes('whatever its date')]).toEqual([element, PRESENCE_RULE[element] === 'current-entry']);
    }
  });
});
