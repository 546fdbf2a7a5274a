/**
 * Why a turn gave the clinician no statements, from a fixed vocabulary: each code has a sentence and
 * what may be asked instead, both written here and nowhere else. The model may at most choose a code
 * (in its final answer's `reason`), and only one this file lets it give with the status it gave; the
 * server picks the code on every other path, and falls back to a fixed default when the model's
 * choice is not one it may make. No text the model writes reaches the clinician through a reason.
 */
/** What may always be asked: the evidence the agent's five tools read. */
const ASK_THE_RECORD = 'Ask what the record shows: recent labs, encounters, open care gaps, missing data, or the readmission-risk factors.';
const ASK_NARROWER = 'Ask about one thing at a time, e.g. "What was the last HbA1c?" or "Is the breast cancer screening gap open?"';
const ASK_AGAIN = 'Ask the same question again in a moment.';
const READ_DIRECTLY = 'Read the record directly meanwhile: the labs, encounters, care gaps and missing data are available without the agent.';

interface ReasonSpec {
  message: string;
  suggestions: readonly string[];
  /** The final status with which the model may choose this code itself; absent: the server's alone. */
  modelMay?: 'refused' | 'insufficient_data';
}

const SPECS = {
  treatment_advice_not_given: {
    message: 'Vigil reports what the record shows; it does not diagnose, prescribe or decide treatment.',
    suggestions: [ASK_THE_RECORD, 'Ask for the evidence behind a decision, e.g. "What was the last LDL, and is the statin therapy gap open?"'],
    modelMay: 'refused',
  },
  outside_this_patient: {
    message: 'A turn reads and answers about this patient only; other patients and groups of patients are outside it.',
    suggestions: ['Ask about this patient\'s own record.', 'For another patient, open their record and ask there; for your patients as a group, use the care-team worklist.'],
    modelMay: 'refused',
  },
  not_a_question_about_the_record: {
    message: 'The question is not about this patient\'s record, which is all the agent reads.',
    suggestions: [ASK_THE_RECORD],
    modelMay: 'refused',
  },
  question_declined: {
    message: 'The question was declined: the agent answers only from this patient\'s record, and gives no clinical advice.',
    suggestions: [ASK_THE_RECORD],
  },
  nothing_in_record_answers: {
    message: 'Nothing the agent read in this patient\'s record answers the question. Something not recorded here may still have happened elsewhere.',
    suggestions: ['Ask what is missing or out of date in the record.', ASK_THE_RECORD],
    modelMay: 'insufficient_data',
  },
  not_in_what_the_agent_reads: {
    message: 'The model looked for something the agent\'s tools do not read: they read labs, encounters, care gaps, missing data and the readmission-risk factors only.',
    suggestions: [ASK_THE_RECORD],
    modelMay: 'insufficient_data',
  },
  answer_not_grounded: {
    message: 'The facts the model chose did not cite rows this turn read from the record, so none could be stated.',
    suggestions: [ASK_AGAIN, ASK_NARROWER],
  },
  budget_exhausted: {
    message: 'The turn reached its limit of model calls, tokens or time before it had an answer the record supports.',
    suggestions: [ASK_NARROWER],
  },
  model_unavailable: {
    message: 'The model did not answer: it could not be reached, answered with an error, or took too long.',
    suggestions: [ASK_AGAIN, READ_DIRECTLY],
  },
  model_reply_malformed: {
    message: 'The model\'s reply was not in the form Vigil accepts, so nothing of it was used.',
    suggestions: [ASK_AGAIN, READ_DIRECTLY],
  },
  turn_failed: {
    message: 'The turn could not be completed.',
    suggestions: [ASK_AGAIN, READ_DIRECTLY],
  },
} as const satisfies Record<string, ReasonSpec>;

export type TurnReasonCode = keyof typeof SPECS;
/** Every code, in one order: the API's enum and the stored column's CHECK. */
export const TURN_REASON_CODES = Object.keys(SPECS) as TurnReasonCode[];

/** The codes the model may choose, by the status it must give with them (what the prompt lists). */
export const MODEL_REASON_CODES = (status: 'refused' | 'insufficient_data'): TurnReasonCode[] =>
  TURN_REASON_CODES.filter((code) => (SPECS[code] as ReasonSpec).modelMay === status);

/** What the clinician reads: the code, its fixed sentence, what to ask instead. */
export interface TurnReason {
  code: TurnReasonCode;
  message: string;
  suggestions: string[];
}

export const isTurnReasonCode = (value: unknown): value is TurnReasonCode => typeof value === 'string' && Object.hasOwn(SPECS, value);

/** The reason of a code (a fresh object: callers may serialise or keep it). */
export function turnReason(code: TurnReasonCode): TurnReason {
  const spec: ReasonSpec = SPECS[code];
  return { code, message: spec.message, suggestions: [...spec.suggestions] };
}

/**
 * The reason of a turn the model ended with a final answer the server did not stand behind. The
 * model's own choice counts only when it is a code it may give with the status it gave, and the
 * server kept that status; otherwise the server decides from what it knows.
 */
export function reasonForAnswer(
  answer: { status: string; reason: TurnReasonCode | null; factsChosen: number },
  grounded: 'refused' | 'insufficient_data',
  toolCallStatuses: readonly string[],
): TurnReasonCode {
  const chosen = answer.reason;
  if (chosen && answer.status === grounded && (SPECS[chosen] as ReasonSpec).modelMay === grounded) return chosen;
  if (grounded === 'refused') return 'question_declined';
  if (answer.status === 'answered' && answer.factsChosen > 0) return 'answer_not_grounded';
  // A tool that does not exist is refused back to the model; the question likely needed what none reads.
  if (toolCallStatuses.includes('unknown_tool')) return 'not_in_what_the_agent_reads';
  return 'nothing_in_record_answers';
}
