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
 * One patient's resources under one set of settings: grouped by type, wrapped once (so the same
 * resource is the same value in every retrieve), and selected by profile as the reference engine
 * selects them. Retrieve results are kept by what the retrieve selects, since many defines repeat the
 * same one. Nothing here depends on the measure, so several measures evaluated for the same patient
 * with the same settings share one, and a retrieve one measure made answers the same one of another.
 */
export class PatientData {
  private readonly byType = new Map<string, FhirResource[]>();
  private readonly wrapped = new Map<string, FhirValue[]>();
  private readonly byProfile = new Map<string, FhirValue[]>();
  private readonly profiles = new Map<string, (readonly string[])[]>();
  private readonly retrieved = new Map<string, unknown>();
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
      const profiles = this.profilesOfType(resourceType);
      list = this.all(resourceType).filter((_, i) => profiles[i].includes(templateId));
      this.byProfile.set(key, list);
    }
    return list;
  }

  /** Each resource's profiles, in `all`'s order: inferred once per resource, however many profiles the measures retrieve by. */
  private profilesOfType(resourceType: string): readonly (readonly string[])[] {
    let profiles = this.profiles.get(resourceType);
    if (!profiles) {
      profiles = this.all(resourceType).map((value) => profilesOf(value.json as FhirResource, this.inferProfiles));
      this.profiles.set(resourceType, profiles);
    }
    return profiles;
  }

  /** A retrieve's result, computed once per patient (keyed by what the retrieve selects: see retrieves.ts). */
  cached<T>(retrieve: string, compute: () => T): T {
    if (this.retrieved.has(retrieve)) return this.retrieved.get(retrieve) as T;
    const value = compute();
    this.retrieved.set(retrieve, value);
    return value;
  }
}
