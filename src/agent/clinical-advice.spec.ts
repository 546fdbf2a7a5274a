import { clinicalAdviceRequested } from './clinical-advice';

/**
 * The screen is judged on both sides: every request for a decision is refused, and every request
 * for evidence — even one full of clinical words — passes. A rule change that breaks either column fails here.
 */
describe(clinicalAdviceRequested.name, () => {
  it.each([
    ['Should we start him on a statin? Please prescribe the dose.', 'prescription'],
    ['Can you prescribe metformin 500 mg?', 'prescription'],
    ['Write her a prescription for lisinopril.', 'prescription'],
    ['What dose of insulin should she get?', 'prescription'],
    ['How much atorvastatin should he take?', 'prescription'],
    ['Diagnose the patient from these labs.', 'diagnosis'],
    ['What is the most likely diagnosis?', 'diagnosis'],
    ['What does she have, given the eGFR trend?', 'diagnosis'],
    ['Could this be a sign of kidney disease?', 'diagnosis'],
    ['Give me a differential for the anemia.', 'diagnosis'],
    ['Should I stop the metformin given her kidney function?', 'treatment'],
    ['Should the patient be started on insulin?', 'treatment'],
    ['Should we switch her to an ARB?', 'treatment'],
    ['How should I treat his blood pressure?', 'treatment'],
    ['What medication should she be on?', 'treatment'],
    ['What is the best treatment for his A1c?', 'treatment'],
    ['Draft a treatment plan for this patient.', 'treatment'],
    ['Recommend a dose adjustment for the statin.', 'treatment'],
    ['Is it safe to start an SGLT2 inhibitor?', 'treatment'],
    ['What’s her diagnosis?', 'diagnosis'],
  ])('refuses %j as a %s request', (question, kind) => {
    expect(clinicalAdviceRequested(question)).toBe(kind);
  });

  it.each([
    'When was her diabetes diagnosed?',
    'What dose of metformin is she on?',
    'Which medication is she taking for blood pressure?',
    'Was a statin prescribed in the last year?',
    'What medications were prescribed at the last visit?',
    'What are the latest labs and is the HbA1c gap open?',
    'Which diagnoses are on the problem list?',
    'Summarise the treatment history recorded in the notes.',
    'What drove the readmission risk score?',
    'Is any data missing for the diabetes measures?',
    'How many inpatient stays were there this year?',
    'What was the last blood pressure and when was it taken?',
  ])('lets %j through as a question about evidence', (question) => {
    expect(clinicalAdviceRequested(question)).toBeNull();
  });
});
