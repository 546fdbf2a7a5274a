import request from 'supertest';
import { StaffRole } from '../../src/common/roles';
import { PatientFixture } from '../../src/cohort/fixtures/fixture.types';
import { parseAnchor, resolveFixtureDay } from '../../src/cohort/fixtures/relative-date';
import { useAgentApp } from '../setup/agent-app';
import { patientIdOf, patients, userFor } from '../setup/cohort';
import { finalAnswer } from '../setup/fake-model';
import { TEST_ANCHOR_DATE } from '../setup/test-database';

/** Names in several scripts and spellings: plain Latin, an apostrophe, hyphen and accents, Greek, Cyrillic, Japanese. */
const PATIENT_KEYS = ['complete-record', 'obrien-nunez', 'greek-name', 'cyrillic-name', 'japanese-name'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

interface Identifiers {
  given: string;
  family: string;
  mrn: string;
  birthDate: string;
  phone: string;
  email: string;
  street: string;
  city: string;
  postalCode: string;
}

function identifiersOf(patient: PatientFixture): Identifiers {
  return {
    given: patient.givenName,
    family: patient.familyName,
    mrn: patient.mrn,
    birthDate: resolveFixtureDay(patient.birthDate, parseAnchor(TEST_ANCHOR_DATE)),
    phone: patient.phone!,
    email: patient.email!,
    street: patient.addressLine!.split(',')[0],
    city: patient.city!,
    postalCode: patient.postalCode!,
  };
}

/**
 * The forms a clinician types a patient into a question: each returns the question and the pieces of
 * identifier in it exactly as typed (none of which may reach the model), with the kinds it carries.
 */
const FORMS: Array<[string, (id: Identifiers) => { question: string; typed: string[] }, string[]]> = [
  ['given family (MRN)', (id) => ({ question: `Does ${id.given} ${id.family} (${id.mrn}) need an HbA1c?`, typed: [id.given, id.family, id.mrn] }), ['name', 'mrn']],
  ['FAMILY, GIVEN', (id) => ({ question: `Is ${id.family.toUpperCase()}, ${id.given.toUpperCase()} due for a colonoscopy?`, typed: [id.family.toUpperCase(), id.given.toUpperCase()] }), ['name']],
  ['lower case, MRN unpunctuated', (id) => {
    const mrn = id.mrn.replace(/-/g, '').toLowerCase();
    return { question: `what is ${id.given.toLowerCase()} ${id.family.toLowerCase()}'s (mrn ${mrn}) latest eGFR?`, typed: [id.given.toLowerCase(), id.family.toLowerCase(), mrn] };
  }, ['name', 'mrn']],
  ['birth date, US and ISO', (id) => {
    const [y, m, d] = id.birthDate.split('-');
    const us = `${m}/${d}/${y}`;
    return { question: `Any open gaps for the patient born ${us} (DOB ${id.birthDate})?`, typed: [us, id.birthDate] };
  }, ['birth_date']],
  ['birth date spelled', (id) => {
    const [y, m, d] = id.birthDate.split('-');
    const spelled = `${MONTHS[Number(m) - 1]} ${Number(d)}, ${y}`;
    return { question: `Born ${spelled}: what are the latest labs?`, typed: [spelled] };
  }, ['birth_date']],
  ['phone and e-mail', (id) => {
    const phone = id.phone.replace('-', ' ');
    return { question: `Call ${phone} or write to ${id.email.toUpperCase()}: is the blood pressure controlled?`, typed: [phone, id.email.toUpperCase()] };
  }, ['phone', 'email']],
  ['street, city, postal code', (id) => ({ question: `Lives at ${id.street}, ${id.city} ${id.postalCode}: any missing data?`, typed: [id.street, id.city, id.postalCode] }), ['address']],
  ['everything', (id) => ({
    question: `${id.family}, ${id.given}; MRN ${id.mrn}; DOB ${id.birthDate}; ${id.phone}; ${id.email}; ${id.street}: is anything overdue?`,
    typed: [id.family, id.given, id.mrn, id.birthDate, id.phone, id.email, id.street],
  }), ['name', 'mrn', 'birth_date', 'phone', 'email', 'address']],
];

/** What the model received, as it would be read: case, accents and full-width forms folded away. */
const folded = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

describe('the clinician’s question reaches the model without the route patient’s identifiers', () => {
  const { model, app } = useAgentApp({ AGENT_MAX_TURNS_PER_HOUR: '1000' });

  const ask = async (key: string, question: string) => {
    const token = await app().tokenFor(userFor(StaffRole.Clinician, key).username);
    const res = await request(app().app.getHttpServer()).post(`/patients/${patientIdOf(key)}/agent/turns`).set('authorization', `Bearer ${token}`).send({ question });
    expect(res.status).toBe(200);
    return { res, token };
  };

  const cases = PATIENT_KEYS.flatMap((key) => FORMS.map(([form, write, kinds]) => [key, form, write, kinds] as const));

  it.each(cases)('%s × %s: the model reads none of it, and the turn and its record say which kinds were replaced', async (key, _form, write, kinds) => {
    const identifiers = identifiersOf(patients.find((patient) => patient.key === key)!);
    const { question, typed } = write(identifiers);
    model.script([finalAnswer('insufficient_data')]);
    const { res, token } = await ask(key, question);

    expect(model.requests).toHaveLength(1);
    const sent = folded(JSON.stringify(model.requests));
    const canonical = [identifiers.given, identifiers.family, identifiers.mrn, identifiers.email, identifiers.street, identifiers.city, identifiers.postalCode];
    for (const identifier of [...typed, ...canonical]) expect({ identifier, sent: sent.includes(folded(identifier)) }).toEqual({ identifier, sent: false });
    // The question still arrives, as a question about the patient.
    const user = model.requests[0].messages.find((message) => message.role === 'user')!;
    expect(user.content).toMatch(/\?$/);
    expect(user.content).not.toBe(question);

    expect(res.body.usage.identifiersReplaced).toEqual(kinds);
    const stored = await request(app().app.getHttpServer()).get(`/patients/${patientIdOf(key)}/agent/turns/${res.body.turnId}`).set('authorization', `Bearer ${token}`);
    expect(stored.status).toBe(200);
    expect(stored.body.usage.identifiersReplaced).toEqual(kinds);
    // Kinds, never values: the turn's answer and its record name no identifier either.
    const told = folded(JSON.stringify([res.body, stored.body]));
    for (const identifier of canonical) expect({ identifier, told: told.includes(folded(identifier)) }).toEqual({ identifier, told: false });
  });

  it('writes names as "the patient" and the rest as placeholders, and sends a question without identifiers as typed', async () => {
    model.script([finalAnswer('insufficient_data'), finalAnswer('insufficient_data')]);
    await ask('complete-record', 'Does Maribel Thornquist (VGL-000125) need an HbA1c?');
    expect(model.requests[0].messages.find((message) => message.role === 'user')!.content).toBe('Does the patient ([MRN]) need an HbA1c?');

    model.script([finalAnswer('insufficient_data')]);
    const { res } = await ask('complete-record', 'Is the HbA1c gap open, and what was the last value?');
    expect(model.requests[0].messages.find((message) => message.role === 'user')!.content).toBe('Is the HbA1c gap open, and what was the last value?');
    expect(res.body.usage.identifiersReplaced).toEqual([]);
  });

  it('says nothing was replaced for a question refused before any model call', async () => {
    model.script([]);
    const { res } = await ask('complete-record', 'Should we start Maribel Thornquist on a statin? Please prescribe the dose.');
    expect(res.body).toMatchObject({ status: 'refused', usage: { identifiersReplaced: [] } });
    expect(model.requests).toHaveLength(0);
  });
});
