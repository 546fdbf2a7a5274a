import { Sex } from '../cohort/enum';
import { Random } from './random';

/**
 * Synthetic identities that read as obviously fake: common given names with invented family names
 * (`Fauxley`, `Mockwell`), fictional 555-01xx phone numbers, `example.org` addresses and made-up
 * towns. Nothing here is, or is derived from, a real person.
 */
const GIVEN_FEMALE = [
  'Ada', 'Beatrix', 'Clara', 'Delia', 'Edith', 'Flora', 'Greta', 'Hazel', 'Ida', 'June',
  'Katrin', 'Lena', 'Mabel', 'Nora', 'Opal', 'Pearl', 'Rosa', 'Stella', 'Thea', 'Vera',
  'Wren', 'Yara', 'Zelda', 'Alma', 'Bonnie', 'Cora', 'Dora', 'Elsie', 'Faye', 'Ivy',
];
const GIVEN_MALE = [
  'Abel', 'Basil', 'Cyril', 'Dexter', 'Emil', 'Felix', 'Gus', 'Hugo', 'Ivo', 'Jasper',
  'Knut', 'Leon', 'Milo', 'Ned', 'Otto', 'Percy', 'Quinn', 'Rufus', 'Silas', 'Tobias',
  'Ulric', 'Victor', 'Walter', 'Xavier', 'Yusuf', 'Zane', 'Amos', 'Boris', 'Cecil', 'Dario',
];
const FAMILY_START = ['Faux', 'Mock', 'Sim', 'Proto', 'Demo', 'Synth', 'Sample', 'Placebo', 'Dummy', 'Test', 'Stub', 'Pseudo'];
const FAMILY_END = ['ley', 'well', 'ford', 'ton', 'by', 'more', 'field', 'wood', 'stead', 'worth', 'combe', 'holm'];
const STREETS = ['Example', 'Sample', 'Placeholder', 'Fiction', 'Synthetic', 'Lorem', 'Ipsum', 'Mockingbird', 'Nowhere', 'Testbed'];
const STREET_TYPES = ['Street', 'Avenue', 'Lane', 'Road', 'Court', 'Way'];
const TOWNS: readonly { city: string; state: string; zipPrefix: string }[] = [
  { city: 'Syntheton', state: 'OR', zipPrefix: '978' },
  { city: 'Mockford Falls', state: 'OR', zipPrefix: '974' },
  { city: 'Placeboro', state: 'WA', zipPrefix: '993' },
  { city: 'Fauxmouth', state: 'WA', zipPrefix: '985' },
  { city: 'Lake Sample', state: 'ID', zipPrefix: '838' },
  { city: 'Demoville', state: 'OR', zipPrefix: '973' },
];

export interface Identity {
  givenName: string;
  familyName: string;
  phone: string;
  email: string;
  addressLine: string;
  city: string;
  state: string;
  postalCode: string;
}

export function syntheticIdentity(random: Random, sex: Sex, patientIndex: number): Identity {
  const givenName = random.pick(sex === Sex.Male ? GIVEN_MALE : sex === Sex.Female ? GIVEN_FEMALE : [...GIVEN_FEMALE, ...GIVEN_MALE]);
  const familyName = random.pick(FAMILY_START) + random.pick(FAMILY_END);
  const town = random.pick(TOWNS);
  return {
    givenName,
    familyName,
    phone: `555-01${String(random.int(0, 99)).padStart(2, '0')}`,
    email: `${givenName}.${familyName}.${patientIndex + 1}@example.org`.toLowerCase(),
    addressLine: `${random.int(1, 9999)} ${random.pick(STREETS)} ${random.pick(STREET_TYPES)}`,
    city: town.city,
    state: town.state,
    postalCode: `${town.zipPrefix}${String(random.int(0, 99)).padStart(2, '0')}`,
  };
}
