import { DataSettings, FhirValue } from './fhir-value';
import { isBaseProfile, profilesOf } from './profiles';

/** A FHIR R4 resource as JSON. */
export interface FhirResource {
  resourceType: string;
  id?: string;
  meta?: { profile?: string[] };
  [field: string]: unknown;
}

/**
 * One patient's resources for one evaluation: grouped by type, wrapped once (so the same resource
 * is the same value in every retrieve), and selected by profile as the reference engine selects
 * them. Retrieve results are kept per compiled retrieve, since many defines repeat the same one.
 */
export class PatientData {
  private readonly byType = new Map<string, FhirResource[]>();
  private readonly wrapped = new Map<string, FhirValue[]>();
  private readonly byProfile = new Map<string, FhirValue[]>();
  private readonly retrieved = new Map<number, unknown>();
  readonly patient: FhirResource | undefined;

  constructor(
    resources: readonly FhirResource[],
    readonly settings: DataSettings,
    /** Give untagged resources the profiles a QI-Core server would (see profiles.ts). */
    private readonly inferProfiles = true,
  ) {
    for (const resource of resources) {
      if (!resource || typeof resource.resourceType !== 'string') continue;
      let list = this.byType.get(resource.resourceType);
      if (!list) this.byType.set(resource.resourceType, (list = []));
      list.push(resource);
    }
    this.patient = this.byType.get('Patient')?.[0];
  }

  /** Every resource of a type, wrapped. */
  all(resourceType: string): FhirValue[] {
    let list = this.wrapped.get(resourceType);
    if (!list) {
      const cls = this.settings.model.classOf(resourceType);
      list = cls ? (this.byType.get(resourceType) ?? []).map((json) => new FhirValue(cls, json, this.settings)) : [];
      this.wrapped.set(resourceType, list);
    }
    return list;
  }

  /** The resources of a type that a retrieve with this profile returns. */
  withProfile(resourceType: string, templateId: string | undefined): FhirValue[] {
    if (!templateId || isBaseProfile(templateId, resourceType)) return this.all(resourceType);
    const key = `${resourceType}|${templateId}`;
    let list = this.byProfile.get(key);
    if (!list) {
      list = this.all(resourceType).filter((value) => profilesOf(value.json as FhirResource, this.inferProfiles).includes(templateId));
      this.byProfile.set(key, list);
    }
    return list;
  }

  /** A retrieve's result, computed once per patient (keyed by the compiled retrieve). */
  cached<T>(retrieveId: number, compute: () => T): T {
    if (this.retrieved.has(retrieveId)) return this.retrieved.get(retrieveId) as T;
    const value = compute();
    this.retrieved.set(retrieveId, value);
    return value;
  }
}
