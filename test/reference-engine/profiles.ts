/**
 * QI-Core 4.1.1 profile tags for resources that carry none.
 *
 * fqm-execution runs cql-exec-fhir with `trustMetaProfile` (default true): a retrieve such as
 * `[MedicationNotRequested: …]` returns only resources whose `meta.profile` names that profile
 * (`qicore-mednotrequested`), and `["observation-bp"]` only those tagged
 * `http://hl7.org/fhir/StructureDefinition/bp`. The stewards' test cases are tagged; data from
 * elsewhere (Synthea, Vigil's generated patients) is not. With `trustMetaProfile: false` instead,
 * every MedicationRequest would also be a "not requested" one and every Observation a blood
 * pressure (on the shared cases that turns 12 CMS347 denominator exceptions into numerator hits),
 * so the harness keeps profile checking on and tags untagged resources the way a QI-Core server
 * would classify them. Resources that already have a `meta.profile` are left as they are.
 */
import { Bundle, CodeableConcept, Resource } from './fhir';

const QICORE = 'http://hl7.org/fhir/us/qicore/StructureDefinition/';
export const BP_PROFILE = 'http://hl7.org/fhir/StructureDefinition/bp';
const LOINC = 'http://loinc.org';

export interface ProfileOptions {
  /**
   * LOINC codes that make an Observation a blood-pressure panel (the FHIR `bp` profile). The
   * profile itself requires 85354-9; Synthea 2.4's R4 export codes its panels 55284-4, so the
   * Synthea loader passes both (see synthea-bundles.ts).
   */
  bpPanelCodes?: readonly string[];
}

export const STRICT_BP_PANEL_CODES = ['85354-9'] as const;

const hasCode = (concept: CodeableConcept | undefined, system: string, codes: readonly string[]) =>
  (concept?.coding ?? []).some((coding) => coding.system === system && codes.includes(coding.code ?? ''));

/** The profiles a QI-Core 4.1.1 server would tag an untagged resource with. */
export function inferProfiles(resource: Resource, options: ProfileOptions = {}): string[] {
  switch (resource.resourceType) {
    case 'Observation': {
      const bp = hasCode(resource.code as CodeableConcept | undefined, LOINC, options.bpPanelCodes ?? STRICT_BP_PANEL_CODES);
      return bp ? [`${QICORE}qicore-observation`, BP_PROFILE] : [`${QICORE}qicore-observation`];
    }
    case 'MedicationRequest':
      return [`${QICORE}${resource.doNotPerform === true ? 'qicore-mednotrequested' : 'qicore-medicationrequest'}`];
    case 'ServiceRequest':
      return [`${QICORE}${resource.doNotPerform === true ? 'qicore-servicenotrequested' : 'qicore-servicerequest'}`];
    case 'Procedure':
      return [`${QICORE}${resource.status === 'not-done' ? 'qicore-procedurenotdone' : 'qicore-procedure'}`];
    case 'Immunization':
      return [`${QICORE}${resource.status === 'not-done' ? 'qicore-immunizationnotdone' : 'qicore-immunization'}`];
    case 'DeviceRequest':
      // The stewards tag a DeviceRequest with qicore-doNotPerform = true as qicore-devicerequest too
      // (CMS125 case 65daa725, "FrailtyDeviceRequestNotPerformedTrue"); the CQL reads the extension
      // itself (QICoreCommon doNotPerform(), exact URL: the misspelt "qicore-doNotPeform" of some cases
      // does not count).
      return [`${QICORE}qicore-devicerequest`];
    default:
      return [`${QICORE}qicore-${resource.resourceType.toLowerCase()}`];
  }
}

/**
 * A copy of the Bundle in which every resource without `meta.profile` carries its inferred
 * profiles. Resources are copied only where tagged; the input is not changed.
 */
export function withInferredProfiles(bundle: Bundle, options: ProfileOptions = {}): Bundle {
  return {
    ...bundle,
    entry: (bundle.entry ?? []).map((entry) => {
      const resource = entry.resource;
      if (!resource || (resource.meta?.profile?.length ?? 0) > 0) return entry;
      return { ...entry, resource: { ...resource, meta: { ...resource.meta, profile: inferProfiles(resource, options) } } };
    }),
  };
}

/** A copy of the Bundle with every `meta.profile` removed (to check the inference on tagged data). */
export function withoutProfiles(bundle: Bundle): Bundle {
  return {
    ...bundle,
    entry: (bundle.entry ?? []).map((entry) => {
      if (!entry.resource?.meta?.profile) return entry;
      const { profile: _profile, ...meta } = entry.resource.meta;
      return { ...entry, resource: { ...entry.resource, meta } };
    }),
  };
}
