/**
 * The screen that refuses, before any model call, a question asking Vigil to diagnose, prescribe or
 * decide treatment: the service reports evidence only. It is a rule set, not a learned classifier,
 * and it is aimed at the *request* (a decision asked of the service), not at clinical words: "When
 * was her diabetes diagnosed?" or "What dose of metformin is she on?" ask for evidence and pass.
 * Two further lines stand behind it: the system prompt lets the model answer `refused`, and the
 * grounding check drops any statement that recommends treatment (grounding.ts).
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
