import { SYSTEM_PROMPT } from '../system-prompt';
import { parseFinalAnswer } from './final-answer';
import { isTurnReasonCode, MODEL_REASON_CODES, reasonForAnswer, TURN_REASON_CODES, turnReason } from './turn-reasons';

describe('the turn reason vocabulary', () => {
  it('gives every code a sentence and at least one suggestion, all fixed text', () => {
    for (const code of TURN_REASON_CODES) {
      const reason = turnReason(code);
      expect(reason.code).toBe(code);
      expect(reason.message).toMatch(/^[A-Z].*\.$/);
      expect(reason.suggestions.length).toBeGreaterThan(0);
      reason.suggestions.forEach((suggestion) => expect(suggestion).toMatch(/^[A-Z].*[.?"]$/));
    }
  });

  it('hands out copies: a caller changing one cannot change what the next turn says', () => {
    const first = turnReason('nothing_in_record_answers');
    first.suggestions.push('Ask the model anything.');
    expect(turnReason('nothing_in_record_answers').suggestions).not.toContain('Ask the model anything.');
  });

  it('knows its codes and nothing else (no prototype names)', () => {
    expect(isTurnReasonCode('treatment_advice_not_given')).toBe(true);
    for (const value of ['constructor', '__proto__', 'toString', 'Treatment_advice_not_given', '', null, 3, {}]) expect(isTurnReasonCode(value)).toBe(false);
  });

  it('lets the model choose only codes about the question, and tells it which in the prompt', () => {
    expect(MODEL_REASON_CODES('refused')).toEqual(['treatment_advice_not_given', 'outside_this_patient', 'not_a_question_about_the_record']);
    expect(MODEL_REASON_CODES('insufficient_data')).toEqual(['nothing_in_record_answers', 'not_in_what_the_agent_reads']);
    for (const code of [...MODEL_REASON_CODES('refused'), ...MODEL_REASON_CODES('insufficient_data')]) expect(SYSTEM_PROMPT).toContain(code);
    expect(SYSTEM_PROMPT).not.toContain('model_unavailable');
  });
});

describe(reasonForAnswer.name, () => {
  const answer = (status: string, reason: string | null = null, factsChosen = 0) => ({ status, reason: isTurnReasonCode(reason) ? reason : null, factsChosen });

  it.each([
    // The model's own choice, when it may make it with the status it gave.
    ['a refusal with a refusal code', answer('refused', 'treatment_advice_not_given'), 'refused', [], 'treatment_advice_not_given'],
    ['a refusal about another patient', answer('refused', 'outside_this_patient'), 'refused', [], 'outside_this_patient'],
    ['an off-scope refusal', answer('refused', 'not_a_question_about_the_record'), 'refused', [], 'not_a_question_about_the_record'],
    ['insufficient data with its code', answer('insufficient_data', 'nothing_in_record_answers'), 'insufficient_data', [], 'nothing_in_record_answers'],
    // The fixed defaults when the model's choice is absent, not its to make, or for another status.
    ['a refusal without a code', answer('refused'), 'refused', [], 'question_declined'],
    ['a refusal with a code of the server', answer('refused', 'model_unavailable'), 'refused', [], 'question_declined'],
    ['a refusal with an insufficient-data code', answer('refused', 'nothing_in_record_answers'), 'refused', [], 'question_declined'],
    ['insufficient data with a refusal code', answer('insufficient_data', 'treatment_advice_not_given'), 'insufficient_data', [], 'nothing_in_record_answers'],
    ['insufficient data claiming a budget', answer('insufficient_data', 'budget_exhausted'), 'insufficient_data', [], 'nothing_in_record_answers'],
    ['an unknown status with a code', answer('maybe', 'nothing_in_record_answers'), 'insufficient_data', [], 'nothing_in_record_answers'],
    ['an unknown status after an unknown tool', answer('maybe', 'nothing_in_record_answers'), 'insufficient_data', ['unknown_tool'], 'not_in_what_the_agent_reads'],
    // What the server knows.
    ['an answer whose facts were all dropped', answer('answered', null, 3), 'insufficient_data', ['ok'], 'answer_not_grounded'],
    ['an answer with no facts', answer('answered'), 'insufficient_data', ['ok'], 'nothing_in_record_answers'],
    ['an answer with no facts after an unknown tool', answer('answered'), 'insufficient_data', ['unknown_tool', 'ok'], 'not_in_what_the_agent_reads'],
    ['insufficient data after a patient id was refused', answer('insufficient_data'), 'insufficient_data', ['patient_bound_by_route'], 'nothing_in_record_answers'],
  ] as const)('%s', (_name, given, grounded, calls, expected) => {
    expect(reasonForAnswer(given, grounded, calls)).toBe(expected);
  });
});

describe('the model\'s reason in its final answer', () => {
  it('keeps a code of the vocabulary and counts nothing else the model wrote as a reason', () => {
    expect(parseFinalAnswer('{"status":"refused","facts":[],"reason":"outside_this_patient"}')).toEqual({ status: 'refused', facts: [], reason: 'outside_this_patient', modelTextDiscarded: false });
    expect(parseFinalAnswer('{"status":"refused","facts":[],"reason":null}')).toMatchObject({ reason: null, modelTextDiscarded: false });
  });

  it.each([
    ['free text', '"The patient has cancer; call 555-0100."'],
    ['a code in other words', '"Treatment advice not given"'],
    ['a code with text after it', '"outside_this_patient: see MRN VGL-000125"'],
    ['an object', '{"code":"outside_this_patient","message":"see the note"}'],
    ['a list', '["outside_this_patient"]'],
  ])('reads a reason given as %s as the model\'s own words: no code, text discarded', (_name, reason) => {
    expect(parseFinalAnswer(`{"status":"refused","facts":[],"reason":${reason}}`)).toMatchObject({ status: 'refused', reason: null, modelTextDiscarded: true });
  });
});
