/**
 * Every reason a care-gap result can give, `<class>:<criterion>`: the class is the population whose
 * criterion decided it (`scoreGroup`), the criterion what the measure's logic named. One list, so
 * the worklist's `reason` filter, its OpenAPI enum and the engine cannot disagree: a criterion code
 * outside it does not compile (`Criterion.code` is a `ReasonCriterion`), and the fixture and
 * stewards' results are checked against the classes listed here.
 */
export const REASON_CRITERIA = {
  // `published-criteria`: a measure loaded as data decided it by the define its population names.
  'initial-population': [
    'published-criteria', 'age', 'sex', 'qualifying-encounter', 'diabetes', 'essential-hypertension', 'ascvd', 'ldl-190-or-familial-hypercholesterolemia', 'high-10-year-risk',
  ],
  // No built-in measure has denominator criteria beyond its initial population; a loaded one may.
  denominator: ['published-criteria'],
  'denominator-exclusion': [
    'published-criteria', 'hospice', 'long-term-care', 'advanced-illness-frailty', 'palliative-care', 'mastectomy', 'colorectal-cancer', 'colectomy', 'pregnancy', 'esrd',
    'kidney-transplant', 'ckd-stage-5', 'esrd-procedure', 'esrd-encounter', 'ckd-stage-5-or-esrd', 'breastfeeding', 'rhabdomyolysis',
  ],
  'denominator-exception': ['published-criteria', 'statin-allergy', 'hospice', 'palliative-care', 'liver-disease', 'statin-muscle-symptoms', 'esrd', 'statin-adverse-reaction', 'medical-reason'],
  numerator: [
    'published-criteria', 'no-glycemic-assessment', 'most-recent-without-result', 'most-recent-above-9', 'mammogram', 'fobt', 'sdna-fit', 'flexible-sigmoidoscopy', 'ct-colonography',
    'colonoscopy', 'controlled', 'statin-ordered', 'kidney-panel',
  ],
  'not-numerator': [
    'published-criteria', 'most-recent-not-comparable', 'most-recent-at-or-below-9', 'no-mammogram', 'no-screening', 'no-blood-pressure', 'incomplete-reading', 'not-controlled',
    'no-statin', 'incomplete-kidney-panel',
  ],
} as const;

export type ReasonClass = keyof typeof REASON_CRITERIA;

/**
 * A criterion code a measure may report. `met` and `none` name an initial population that holds
 * and "no exclusion (exception) applies": they decide nothing, so no reason carries them.
 */
export type ReasonCriterion = (typeof REASON_CRITERIA)[ReasonClass][number] | 'met' | 'none';

/** The classes, in the order the population tables list them. */
export const REASON_CLASSES = Object.keys(REASON_CRITERIA) as ReasonClass[];

/** Every full reason code, class by class. */
export const REASON_CODES: readonly string[] = REASON_CLASSES.flatMap((reasonClass) => REASON_CRITERIA[reasonClass].map((criterion) => `${reasonClass}:${criterion}`));

/** What a reason filter may name: a class (`not-numerator`) or a full code (`not-numerator:no-screening`). */
export const REASON_FILTERS: readonly string[] = [...REASON_CLASSES, ...REASON_CODES];
