/**
 * The screen that refuses, before any model call, a question asking Vigil to diagnose, prescribe or
 * decide treatment: the service reports evidence only. It is a rule set, not a learned classifier,
 * and it is aimed at the *request* (a decision asked of the service), not at clinical words: "When
 * was her diabetes diagnosed?" or "What dose of metformin is she on?" ask for evidence and pass.
 * Behind it, `treatmentAdviceIn` screens everything the model writes that a person will read (a
 * proposal's rationale and text, record text a rendered statement would quote).
 */

/** Each rule names the kind of decision it catches, so a refusal can be explained and tested. */
const RULES: readonly { kind: 'diagnosis' | 'prescription' | 'treatment'; pattern: RegExp }[] = [
  // "Diagnose her", "what is his diagnosis", "what does she have", "could this be lupus", "differential".
  { kind: 'diagnosis', pattern: /\bdiagnose\s+(?:him|her|them|me|the patient|this|it)\b/i },
  { kind: 'diagnosis', pattern: /\bwhat(?:'s| is) (?:his|her|their|the(?: most likely)?|a likely|the likely) diagnosis\b/i },
  { kind: 'diagnosis', pattern: /\bwhat (?:does|do|might|could) (?:he|she|they|the patient) (?:have|be suffering from)\b/i },
  { kind: 'diagnosis', pattern: /\b(?:could|might|is) (?:this|it|that) (?:be )?(?:a sign of|caused by|due to|consistent with)\b/i },
  { kind: 'diagnosis', pattern: /\bdifferential(?: diagnosis| diagnoses)?\b/i },
  // "Prescribe …", "write a prescription", "what dose should …", "how much … should she take".
  { kind: 'prescription', pattern: /\bprescribe\b/i },
  { kind: 'prescription', pattern: /\b(?:write|issue|draft|give|send)(?: me| her| him| them)? (?:a|an|the) (?:prescription|script|refill)\b/i },
  { kind: 'prescription', pattern: /\bwhat (?:dose|dosage|strength)\b[^?.]*\bshould\b/i },
  { kind: 'prescription', pattern: /\bhow much\b[^?.]*\bshould (?:i|we|he|she|they|the patient) (?:give|take|get|use)\b/i },
  // "Should we start / stop / switch …", "how should I treat", "what treatment is best", "treatment plan".
  {
    kind: 'treatment',
    pattern: /\bshould (?:i|we|you|he|she|they|the patient)\b[^?.]*\b(?:start|stop|take|give|add|increase|decrease|reduce|titrate|switch|change|continue|discontinue|begin|be (?:started|given|put|switched|treated))\b/i,
  },
  { kind: 'treatment', pattern: /\bhow (?:should|would|do|can) (?:i|we|you) (?:treat|manage)\b/i },
  { kind: 'treatment', pattern: /\bwhat (?:treatment|therapy|medication|medicine|drug)s? (?:should|would you|do you|is best|would be best)\b/i },
  { kind: 'treatment', pattern: /\b(?:best|right|recommended) (?:treatment|therapy|medication|drug)\b/i },
  { kind: 'treatment', pattern: /\btreatment (?:plan|decision|recommendation)s?\b/i },
  { kind: 'treatment', pattern: /\b(?:recommend|suggest|advise)\b[^?.]*\b(?:treatment|therapy|medication|drug|dose|dosage)\b/i },
  { kind: 'treatment', pattern: /\bis it safe to (?:start|stop|give|add|increase|switch)\b/i },
];

export type ClinicalAdviceKind = (typeof RULES)[number]['kind'];

/** The kind of clinical decision the question asks for, or null for a question about evidence. */
export function clinicalAdviceRequested(question: string): ClinicalAdviceKind | null {
  // Curly apostrophes as typed on phones and in word processors read like straight ones.
  const text = question.replace(/[\u2018\u2019]/g, "'");
  return RULES.find((rule) => rule.pattern.test(text))?.kind ?? null;
}

/** Verbs that, as a command, change a patient's treatment ("Begin …", "Stop … and switch …", "Hold …"). */
const TREATMENT_VERB =
  'begin|start|stop|discontinue|cease|switch|increase|decrease|reduce|titrate|up-?titrate|initiate|commence|prescribe|administer|hold|double|halve|resume|continue|taper|wean|escalate|de-?escalate|replace|substitute|give';
/** What a treatment is made of, for verbs that are advice only with one ("add a statin", not "add a note"). */
const THERAPY = 'therapy|treatment|medication|medicine|drug|dose|dosage|statin|insulin|metformin|inhibitor|agonist|blocker|antagonist|diuretic|ace-?i|arb|sglt2|glp-1|aspirin|anticoagula\\w*|antibiotic\\w*|\\d+\\s*mg';

/**
 * Model-written text that advises treatment: imperative forms at the start of a sentence or clause
 * ("Begin high-intensity statin therapy today.", "Stop metformin and switch her to insulin."),
 * hedged forms anywhere ("consider …", "may benefit from …", "it is reasonable to start …",
 * "should be started"), and recommendations. A statement of fact about care already given ("Metformin
 * was started in 2024", "She stopped smoking") passes: the verbs are matched in their base form
 * as commands, never in the past tense.
 */
const ADVICE: readonly RegExp[] = [
  new RegExp(`(?:^|[.!?;:\\n]|\\band\\b|\\bthen\\b|^\\s*[-*•]|\\d[.)])\\s*(?:please\\s+)?(?:${TREATMENT_VERB})\\b(?!\\s+(?:date|of|on\\s+\\d))`, 'i'),
  new RegExp(`(?:^|[.!?;:\\n])\\s*(?:please\\s+)?add\\b[^.!?;]{0,40}\\b(?:${THERAPY})\\b`, 'i'),
  /\bconsider\b/i,
  /\b(?:may|might|would|could|will) (?:likely )?benefit from\b/i,
  /\b(?:it is|it's|it would be|it may be|it might be|would be|may be) (?:reasonable|advisable|prudent|appropriate|worth|wise|time|best|better) to\b/i,
  new RegExp(`\\b(?:should|must|ought to|needs? to|has to|have to)\\s+(?:now\\s+)?(?:be\\s+)?(?:${TREATMENT_VERB}|add|put|started|stopped|switched|increased|decreased|given|prescribed|treated|initiated|titrated)\\b`, 'i'),
  /\b(?:recommend\w*|advis(?:e|es|ing|able)|suggest(?:ing)?)\b/i,
  /\b(?:lower|raise|reduce|increase|decrease|cut|up) (?:the|her|his|their|its) (?:dose|dosage)\b/i,
  /\b(?:switch|start|put|begin|initiate)\s+(?:her|him|them|the patient|patient)\s+(?:on|to)\b/i,
  /\b(?:is|are)\s+(?:clearly\s+|now\s+)?indicated\b/i,
  new RegExp(`\\b(?:you|we|i) (?:may|might|could|should|can) (?:want to |wish to )?(?:${TREATMENT_VERB}|add|try)\\b`, 'i'),
];

/** True when text the model wrote advises treatment (see ADVICE); the screen for model output. */
export function treatmentAdviceIn(text: string): boolean {
  const normalised = text.replace(/[\u2018\u2019]/g, "'");
  return ADVICE.some((pattern) => pattern.test(normalised));
}
