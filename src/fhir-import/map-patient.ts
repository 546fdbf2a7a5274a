import { Sex } from '../cohort/enum';
import { firstCode, normaliseSystem } from './codes';
import { Json, asObject, asObjects, asString } from './json';
import { MapContext, SourceResource, idOf, optionalInstant } from './map-context';
import { keysOf, PatientTarget } from './references';
import { MappedResource, SkipResource } from './fhir-import.types';
import { cleanText, parseFhirDate } from './text';

const SEXES: Record<string, Sex> = { female: Sex.Female, male: Sex.Male, other: Sex.Other, unknown: Sex.Unknown };

/** US Core's sex extension (6.1: `valueCode`; 7: `valueCoding`), which QI-Core 6 measures read as `Patient.sex`. */
const US_CORE_SEX = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-sex';

const US_CORE_RACE = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-race';
const US_CORE_ETHNICITY = 'http://hl7.org/fhir/us/core/StructureDefinition/us-core-ethnicity';

/** The codings of US Core's race or ethnicity extension (`ombCategory` and `detailed`), as JSON; null when none. */
function demographicCodings(resource: Json, url: string): string | null {
  const codings = asObjects(resource.extension)
    .filter((extension) => extension.url === url)
    .flatMap((extension) => asObjects(extension.extension))
    .filter((part) => part.url === 'ombCategory' || part.url === 'detailed')
    .flatMap((part) => {
      const coding = asObject(part.valueCoding);
      const system = normaliseSystem(coding?.system);
      const code = cleanText(coding?.code);
      return system && code ? [{ part: part.url, system, code }] : [];
    });
  return codings.length > 0 ? JSON.stringify(codings) : null;
}

function sexCodeOf(resource: Json): string | null {
  const extension = asObjects(resource.extension).find((candidate) => candidate.url === US_CORE_SEX);
  const code = cleanText(extension?.valueCode) ?? cleanText(asObject(extension?.valueCoding)?.code);
  return code !== null && /^\S+( \S+)*$/.test(code) ? code : null;
}

/**
 * The medical record number: the identifier typed `MR` (HL7 v2-0203). Without one, `fhir:<id>`,
 * the source's own id, marked so it cannot pass for a hospital MRN. Never another identifier: the
 * first identifier of a Patient is often a social security or driver's licence number.
 */
export function mrnOf(resource: Json, sourceId: string): string {
  const typed = asObjects(resource.identifier).find((identifier) => firstCode(identifier.type) === 'MR' && cleanText(identifier.value));
  return typed ? (cleanText(typed.value) as string) : `fhir:${sourceId}`;
}

function nameOf(resource: Json): { given: string; family: string } {
  const names = asObjects(resource.name);
  const name = names.find((candidate) => candidate.use === 'official') ?? names[0];
  const given = (Array.isArray(name?.given) ? name.given : []).map(cleanText).filter((part): part is string => part !== null);
  const family = cleanText(name?.family);
  if (!given.length && !family) throw new SkipResource('no name (given or family)');
  return { given: given.join(' '), family: family ?? '' };
}

const telecom = (resource: Json, system: string) =>
  cleanText(asObjects(resource.telecom).find((contact) => contact.system === system && cleanText(contact.value))?.value);

export function mapPatient(source: SourceResource, context: MapContext): { mapped: MappedResource; target: PatientTarget; keys: string[] } {
  const { resource } = source;
  const warnings: string[] = [];
  const birth = parseFhirDate(resource.birthDate);
  if (!birth.ok) throw new SkipResource(`birthDate ${birth.problem === 'missing' ? 'missing' : `is ${birth.problem}`}`);
  if (birth.millis > context.nowMillis) throw new SkipResource('birthDate is in the future');
  const deceased = optionalInstant(resource.deceasedDateTime, 'deceasedDateTime');
  if (deceased && deceased.millis < birth.millis) throw new SkipResource('deceasedDateTime is before birthDate');
  if (resource.deceasedBoolean === true && !deceased) warnings.push('deceasedBoolean without a date (deceased_at left empty)');

  const gender = asString(resource.gender);
  const sex = gender === undefined ? Sex.Unknown : SEXES[gender];
  if (!sex) warnings.push('gender outside administrative-gender (stored as unknown)');
  const name = nameOf(resource);
  const addresses = asObjects(resource.address);
  const address = addresses.find((candidate) => candidate.use === 'home') ?? addresses[0];
  const lines = (Array.isArray(address?.line) ? address.line : []).map(cleanText).filter((line): line is string => line !== null);

  const id = idOf(context, source);
  const mapped: MappedResource = {
    type: 'Patient',
    key: `Patient/${source.sourceId}`,
    position: source.position,
    warnings,
    rows: {
      patients: [
        {
          id,
          mrn: mrnOf(resource, source.sourceId),
          given_name: name.given,
          family_name: name.family,
          birth_date: birth.day,
          sex: sex ?? Sex.Unknown,
          sex_code: sexCodeOf(resource),
          race: demographicCodings(resource, US_CORE_RACE),
          ethnicity: demographicCodings(resource, US_CORE_ETHNICITY),
          phone: telecom(resource, 'phone'),
          email: telecom(resource, 'email'),
          address_line: lines.length ? lines.join(', ') : null,
          city: cleanText(address?.city),
          state: cleanText(address?.state),
          postal_code: cleanText(address?.postalCode),
          deceased_at: deceased?.instant ?? null,
        },
      ],
      ...(context.careTeamId ? { patient_care_teams: [{ patient_id: id, care_team_id: context.careTeamId }] } : {}),
    },
  };
  return {
    mapped,
    target: { rowId: id, deceasedAtMillis: deceased?.millis ?? null },
    keys: keysOf('Patient', source.sourceId, source.fullUrl),
  };
}
