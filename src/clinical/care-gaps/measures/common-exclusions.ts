import { ReasonCriterion } from '../reason-codes';

/**
 * Reason codes and texts of the exclusions the measures share (Hospice, PalliativeCare,
 * AdvancedIllnessandFrailty), as `[when met, when not]` pairs for `criterion()`.
 */
type Texts = [met: [ReasonCriterion, string], notMet: [ReasonCriterion, string]];

const pair = (code: ReasonCriterion, text: string): Texts => [
  [code, text],
  [code, ''],
];

export const commonExclusions = {
  hospice: pair('hospice', 'Hospice care is recorded during the measurement period.'),
  palliative: pair('palliative-care', 'Palliative care is recorded during the measurement period.'),
  frailty: pair('advanced-illness-frailty', 'Aged 66 or older with frailty and an advanced illness (or dementia medication) recorded.'),
  frailty81: pair('advanced-illness-frailty', 'Aged 66–80 with frailty and an advanced illness (or dementia medication), or 81 or older with frailty.'),
  nursingHome: pair('long-term-care', 'Aged 66 or older and the most recent housing status says the patient lives in a nursing home.'),
} satisfies Record<string, Texts>;
