import { clinicalAdviceRequested, treatmentAdviceIn } from './clinical-advice';

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

/**
 * The output screen, judged on both sides: model text that advises treatment (imperative or hedged)
 * never passes; text that reports care already given or asks for a lab or a note does.
 */
describe(treatmentAdviceIn.name, () => {
  it.each([
    'Begin high-intensity statin therapy today.',
    'Stop metformin and switch her to insulin.',
    'HbA1c is 9.4 %. Start insulin glargine 10 units at night.',
    'Increase lisinopril to 20 mg daily.',
    'Please discontinue the aspirin.',
    '1. Titrate atorvastatin to 80 mg',
    '- Hold metformin while eGFR is below 30',
    'Consider adding an SGLT2 inhibitor.',
    'consider statin therapy',
    'She may benefit from a GLP-1 agonist.',
    'It is reasonable to start a statin.',
    'It would be prudent to stop the NSAID.',
    'Statin therapy should be started.',
    'The dose should be increased.',
    'The patient needs to start insulin.',
    'I recommend a statin.',
    'We suggest switching to an ARB.',
    'Switch her to insulin.',
    'Put him on a beta blocker.',
    'A statin is indicated.',
    'You may want to add metformin.',
    'Add an ACE inhibitor to the regimen.',
    'Reduce the dose of metformin.',
    'Blood pressure is high; then increase amlodipine.',
    'Continue metformin.',
    'Resume anticoagulation after the procedure.',
    'It’s time to start insulin.',
  ])('refuses %j', (text) => {
    expect(treatmentAdviceIn(text)).toBe(true);
  });

  it.each([
    'Metformin was started on 2024-01-01.',
    'She stopped smoking in 2019.',
    'Statin therapy was discontinued in March.',
    'Insulin dose increased at the last visit.',
    'Started on lisinopril in 2022.',
    'HbA1c has not been recorded in the last 12 months.',
    'No HbA1c result in the measurement period; ordering one would close the gap.',
    'Order an HbA1c: none in the measurement period.',
    'Add a care note documenting the outreach call.',
    'Schedule outreach by phone about the overdue screening.',
    'The measure is closed by the HbA1c on file.',
    'Start date of the episode: 2025-02-01.',
    'The LDL was lower than the previous result.',
    'The patient was advised to quit smoking at the last visit.',
    'The eGFR trend suggests nothing was recorded after March.',
    'Outreach: the patient has no visit in the last year.',
  ])('lets %j through', (text) => {
    expect(treatmentAdviceIn(text)).toBe(false);
  });
});
