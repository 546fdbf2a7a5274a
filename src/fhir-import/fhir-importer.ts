import { DataSource } from 'typeorm';
import { IMPORT_STATEMENTS } from './fhir-import.sql';
import { DirectoryImport } from './directory-import';
import { DirectoryRepository } from './directory.repository';
import { AcceptedType, DirectoryType, isAcceptedType, isDirectoryType, isSupportedType, MappedResource, Position, SkipResource, SupportedType } from './fhir-import.types';
import { ImportSummary } from './import-summary';
import { ImportOptions, UnknownCareTeamError } from './import-options';
import { MeasureNeedsTally } from './measure-needs-tally';
import { asArray, asString, Json } from './json';
import { MapContext, SourceResource } from './map-context';
import { mapEncounter } from './map-encounter';
import { mapPatient } from './map-patient';
import { codeTargetOf } from './map-requests';
import { RECORD_MAPPERS } from './record-mappers';
import { CodeTarget, DEFAULT_SOURCE, EncounterTarget, keysOf, PatientTarget, referenceOf, sourceIdOf, sourceNamespace, TargetIndex } from './references';
import { ResourceWriter } from './resource-writer';
import { listSourceFiles, readSourceFile, SourceFile } from './source-reader';

/**
 * Three passes over the same files, so that whatever order the files and entries come in, every
 * reference points at something already written: Patients first, then Encounters (which name a
 * patient), then everything else (which names a patient and perhaps an encounter). People and teams
 * ride along: PractitionerRoles are read first (kept, not written), Practitioners written in the
 * second pass with the role their PractitionerRoles give, CareTeams in the last (they name both).
 */
const PASSES: { label: string; types: readonly SupportedType[]; people: DirectoryType; accepted: 'indexed' | 'other' | 'none' }[] = [
  { label: 'patients', types: ['Patient'], people: 'PractitionerRole', accepted: 'none' },
  // Medications and Devices are read with the encounters: the requests of the last pass name them.
  { label: 'encounters', types: ['Encounter'], people: 'Practitioner', accepted: 'indexed' },
  {
    label: 'clinical records',
    types: ['Observation', 'Condition', 'MedicationRequest', 'MedicationDispense', 'Procedure', 'AllergyIntolerance', 'ServiceRequest', 'DeviceRequest', 'AdverseEvent', 'Immunization', 'Communication', 'MedicationAdministration', 'Task'],
    people: 'CareTeam',
    accepted: 'other',
  },
];

/** Accepted types whose codes requests read (`medicationReference`, `codeReference`). */
const INDEXED_TYPES: readonly AcceptedType[] = ['Medication', 'Device'];

/** Patients per query when looking for shared MRNs. */
const MRN_CHECK_CHUNK = 5000;

const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;
/** A resource type is named in a reason only when it looks like one (never arbitrary input). */
const TYPE_NAME = /^[A-Z][A-Za-z]{1,63}$/;

type Mapped = { mapped: MappedResource; onWritten?: () => void; onRefused?: () => void };

/**
 * Loads FHIR R4 (Bundles and NDJSON) into the cohort schema. Every resource is mapped completely
 * in memory before anything is written, then written with all its rows in one transaction, so a
 * resource is either wholly loaded or reported and skipped. Idempotent by source identity.
 */
export class FhirImporter {
  readonly summary = new ImportSummary();
  private readonly writer: ResourceWriter;
  private readonly patients = new TargetIndex<PatientTarget>();
  private readonly encounters = new TargetIndex<EncounterTarget>();
  private readonly medications = new TargetIndex<CodeTarget>();
  private readonly devices = new TargetIndex<CodeTarget>();
  private readonly locations = new TargetIndex<CodeTarget>();
  /** Where each patient written by this run was read, for the shared-MRN warnings. */
  private readonly patientPositions = new Map<string, Position>();
  /** Per Bundle file, the reference of its only Patient (null when it holds several), for `patientBundles`. */
  private readonly bundlePatients = new Map<string, string | null>();
  private readonly seen = new Set<string>();
  /** Patients whose data this run inserted or changed (for the measure-results recompute the CLI requests). */
  readonly changedPatientIds = new Set<string>();
  private written = 0;
  private bytesDone = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: ImportOptions,
  ) {
    this.writer = new ResourceWriter(dataSource);
    if (options.measureNeeds) this.summary.needs = new MeasureNeedsTally(options.measureNeeds);
  }

  async run(root: string): Promise<ImportSummary> {
    const careTeamId = this.options.careTeamCode === undefined ? null : await this.careTeamId(this.options.careTeamCode);
    const files = await listSourceFiles(root);
    this.summary.files = files.length;
    const namespace = sourceNamespace(this.options.source);
    const nowMillis = (this.options.now ?? new Date()).getTime();
    const directory = new DirectoryImport(new DirectoryRepository(this.dataSource, this.options.onAccessLoss), this.summary, {
      namespace,
      source: this.options.source ?? DEFAULT_SOURCE,
      nowMillis,
      batchSize: this.options.batchSize ?? 500,
      patients: this.patients,
    });
    const context: MapContext = {
      careTeamId,
      namespace,
      patients: this.patients,
      encounters: this.encounters,
      medications: this.medications,
      devices: this.devices,
      locations: this.locations,
      isKnownCode: this.options.isKnownCode,
      nowMillis,
    };
    const bytesTotal = files.reduce((sum, file) => sum + file.bytes, 0) * PASSES.length;
    for (const [index, pass] of PASSES.entries()) {
      if (this.options.signal?.aborted) break;
      const progress = (): void =>
        this.options.onProgress?.({ pass: index + 1, passes: PASSES.length, label: pass.label, bytesDone: this.bytesDone, bytesTotal, written: this.written + directory.written });
      await this.runPass(index, files, context, directory, progress);
      if (this.options.signal?.aborted) continue;
      if (index === 0) await this.warnSharedMrns();
      if (index === 1) directory.settleUnclaimedRoles();
    }
    this.summary.aborted = this.options.signal?.aborted ?? false;
    if (!this.summary.aborted && careTeamId === null) await this.warnPatientsOnNoTeam();
    return this.summary;
  }

  private async careTeamId(code: string): Promise<string> {
    const [team] = await this.dataSource.query(IMPORT_STATEMENTS.careTeamByCode, [code]);
    if (team) return team.id;
    const codes: { code: string }[] = await this.dataSource.query(IMPORT_STATEMENTS.careTeamCodes);
    throw new UnknownCareTeamError(codes.map((row) => row.code));
  }

  private async runPass(index: number, files: SourceFile[], context: MapContext, directory: DirectoryImport, progress: () => void): Promise<void> {
    const { types, accepted, people } = PASSES[index];
    const first = index === 0;
    const last = index === PASSES.length - 1;
    const batchSize = this.options.batchSize ?? 500;
    let batch: Mapped[] = [];
    for (const file of files) {
      const fileStart = this.bytesDone;
      for await (const entry of readSourceFile(file)) {
        this.bytesDone += entry.bytes;
        if ('problem' in entry) {
          if (first) this.summary.skip(entry.position, entry.problem);
          continue;
        }
        const type = asString(entry.resource.resourceType);
        if (type && isAcceptedType(type)) {
          // Locations are indexed (not counted) before the encounters that name them.
          if (first && type === 'Location' && FHIR_ID.test(sourceIdOf(entry.resource, entry.fullUrl))) {
            this.locations.add(keysOf(type, sourceIdOf(entry.resource, entry.fullUrl), entry.fullUrl), { concept: asArray(entry.resource.type) });
          }
          const indexed = INDEXED_TYPES.includes(type);
          if (indexed ? accepted === 'indexed' : accepted === 'other') this.accept(type, entry.resource, entry.fullUrl);
          continue;
        }
        if (type && isDirectoryType(type)) {
          if (type === people && (await this.addPerson(directory, type, entry))) {
            progress();
            if (this.options.signal?.aborted) return;
          }
          continue;
        }
        if (!type || !isSupportedType(type)) {
          if (first && !type) this.summary.skip(entry.position, 'no resourceType');
          if (last && type) {
            this.summary.skip(entry.position, `unsupported resource type (${TYPE_NAME.test(type) ? type : 'unrecognised'})`);
            this.countNeeds(type, entry.resource);
          }
          continue;
        }
        if (!types.includes(type)) continue;
        const source: SourceResource = { type, sourceId: sourceIdOf(entry.resource, entry.fullUrl), resource: entry.resource, fullUrl: entry.fullUrl, position: entry.position };
        if (first && type === 'Patient' && entry.position.entry !== undefined) {
          this.bundlePatients.set(entry.position.file, this.bundlePatients.has(entry.position.file) ? null : `Patient/${source.sourceId}`);
        }
        const warning = this.adoptBundlePatient(source, this.options.patientBundles === true);
        const mapped = this.map(source, context);
        if (mapped && warning) mapped.mapped.warnings.push(warning);
        if (!mapped) continue;
        this.countNeedsWhenWritten(mapped, type, source.resource);
        batch.push(mapped);
        if (batch.length >= batchSize) {
          await this.flush(batch);
          batch = [];
          progress();
          if (this.options.signal?.aborted) return;
        }
      }
      this.bytesDone = fileStart + file.bytes;
      progress();
    }
    await this.flush(batch);
    await directory.endPass();
    progress();
  }

  /** A Practitioner, PractitionerRole or CareTeam to the people-and-teams import; true when it wrote a batch. */
  private async addPerson(directory: DirectoryImport, type: DirectoryType, entry: { resource: Json; fullUrl?: string; position: Position }): Promise<boolean> {
    const sourceId = sourceIdOf(entry.resource, entry.fullUrl);
    if (!this.admit(type, sourceId, entry.position)) return false;
    return directory.add({ type, sourceId, resource: entry.resource, fullUrl: entry.fullUrl, position: entry.position });
  }

  /** Whether a resource's id is usable and new to this import; otherwise it is reported. */
  private admit(type: SupportedType | DirectoryType, sourceId: string, position: Position): boolean {
    if (!FHIR_ID.test(sourceId)) {
      this.summary.skip(position, 'id missing or not a FHIR id', type);
      return false;
    }
    const key = `${type}/${sourceId}`;
    if (this.seen.has(key)) {
      this.summary.skip(position, 'same id as an earlier resource in this import (the first one is kept)', type);
      return false;
    }
    this.seen.add(key);
    return true;
  }

  /** Maps one resource, or reports why it cannot be loaded; nothing is written here. */
  private map(source: SourceResource, context: MapContext): Mapped | undefined {
    const { type, position } = source;
    if (!this.admit(type, source.sourceId, position)) return undefined;
    try {
      switch (type) {
        case 'Patient': {
          const { mapped, target, keys } = mapPatient(source, context);
          const onWritten = () => {
            this.patients.add(keys, target);
            this.patientPositions.set(target.rowId, position);
          };
          return { mapped, onWritten, onRefused: () => this.patients.refuse(keys) };
        }
        case 'Encounter': {
          const { mapped, target, keys } = mapEncounter(source, context);
          return { mapped, onWritten: () => this.encounters.add(keys, target), onRefused: () => this.encounters.refuse(keys) };
        }
        default:
          return { mapped: RECORD_MAPPERS[type](source, context) };
      }
    } catch (error) {
      // Only the error's kind is reported: a message could quote the record.
      const reason = error instanceof SkipResource ? error.reason : `could not be read (${error instanceof Error ? error.name : 'error'})`;
      this.summary.skip(position, reason, type);
      if (type === 'Patient' || type === 'Encounter') {
        const index = type === 'Patient' ? this.patients : this.encounters;
        index.refuse(keysOf(type, source.sourceId, source.fullUrl));
      }
      return undefined;
    }
  }

  /**
   * Under `patientBundles`: points a subject (or `patient`, or a Task's `for`) that is missing, names no Patient, or names
   * one outside its Bundle, at the Bundle's only Patient, as the reference engine reads a test case's
   * Bundle; returns the warning. Without it, only warns of the last.
   */
  private adoptBundlePatient(source: SourceResource, adopt: boolean): string | undefined {
    if (source.position.entry === undefined || source.type === 'Patient') return undefined;
    const only = this.bundlePatients.get(source.position.file);
    const field = source.type === 'Task' ? 'for' : source.type === 'AllergyIntolerance' || source.type === 'Immunization' ? 'patient' : 'subject';
    const reference = referenceOf(source.resource[field]);
    if (!only) return undefined;
    if (reference === undefined) {
      if (!adopt) return undefined;
      source.resource = { ...source.resource, [field]: { reference: only } };
      return `${field} missing (read as the Bundle's only Patient, --patient-bundles)`;
    }
    const named = this.patients.resolve(reference);
    if ('found' in named) {
      const own = this.patients.resolve(only);
      // A subject naming a Patient of another file (test decks copy resources between cases) is re-pointed too.
      if (!('found' in own) || own.found.rowId === named.found.rowId) return undefined;
      // Without the option the record stays with the patient it names, and the summary says so.
      if (!adopt) return `${field} names a Patient outside its single-patient Bundle (kept on that patient; see --patient-bundles)`;
    } else if (!('dangling' in named) || !adopt) return undefined;
    source.resource = { ...source.resource, [field]: { reference: only } };
    return `${field} names no Patient or one outside its Bundle (read as the Bundle's only Patient, --patient-bundles)`;
  }

  /** Counts an administrative resource; a Medication or Device is also indexed by its code for the requests. */
  private accept(type: AcceptedType, resource: Record<string, unknown>, fullUrl?: string): void {
    this.summary.accept(type);
    this.countNeeds(type, resource);
    if (!INDEXED_TYPES.includes(type)) return;
    const id = sourceIdOf(resource, fullUrl);
    if (!FHIR_ID.test(id)) return;
    const index = type === 'Medication' ? this.medications : this.devices;
    const target = codeTargetOf(resource);
    if (target) index.add(keysOf(type, id, fullUrl), target);
    else index.refuse(keysOf(type, id, fullUrl));
  }

  /** A resource of a type Vigil does not store: counted against the measures' needs as carried. */
  private countNeeds(type: string, resource: Json): void {
    this.summary.needs?.count(type, this.summary.needs.select(resource));
  }

  /** A resource Vigil stores: counted against the measures' needs once written (loaded, updated or already present). */
  private countNeedsWhenWritten(mapped: Mapped, type: string, resource: Json): void {
    const tally = this.summary.needs;
    if (!tally) return;
    const needs = tally.select(resource);
    if (needs.length === 0) return;
    const written = mapped.onWritten;
    mapped.onWritten = () => {
      written?.();
      tally.count(type, needs);
    };
  }

  /**
   * MRN is an attribute, not a key: a patient whose MRN another patient (of this import or already
   * in the database) also has is imported, and counted here as a data-quality warning with its
   * position (never the MRN). Checked once all patients are written, so the count does not depend
   * on batch size or on which of the two came first.
   */
  private async warnSharedMrns(): Promise<void> {
    const ids = [...this.patientPositions.keys()];
    for (let start = 0; start < ids.length; start += MRN_CHECK_CHUNK) {
      const rows: { id: string }[] = await this.dataSource.query(IMPORT_STATEMENTS.patientsWithSharedMrn, [ids.slice(start, start + MRN_CHECK_CHUNK)]);
      const shared = new Set(rows.map((row) => row.id));
      for (const id of ids.slice(start, start + MRN_CHECK_CHUNK)) {
        if (shared.has(id)) this.summary.warn(this.patientPositions.get(id) as Position, 'Patient', 'MRN also held by another patient (imported; MRN is not an identity)');
      }
    }
  }

  /**
   * Without `--care-team`, a patient of this run that no care team holds (no CareTeam of this import
   * or an earlier one names it) is imported, and reported: nobody can read it until a team does.
   */
  private async warnPatientsOnNoTeam(): Promise<void> {
    const ids = [...this.patientPositions.keys()];
    for (let start = 0; start < ids.length; start += MRN_CHECK_CHUNK) {
      const rows: { id: string }[] = await this.dataSource.query(IMPORT_STATEMENTS.patientsOnNoTeam, [ids.slice(start, start + MRN_CHECK_CHUNK)]);
      for (const { id } of rows) {
        this.summary.warn(this.patientPositions.get(id) as Position, 'Patient', 'on no care team: nobody can read it until one holds it (a CareTeam naming it, --care-team, or admin team add-patient)');
      }
    }
  }

  private noteChangedPatients(resource: MappedResource): void {
    for (const [table, rows] of Object.entries(resource.rows)) {
      for (const row of rows ?? []) {
        const patientId = table === 'patients' ? row.id : row.patient_id;
        if (typeof patientId === 'string') this.changedPatientIds.add(patientId);
      }
    }
  }

  private async flush(batch: Mapped[]): Promise<void> {
    if (batch.length === 0) return;
    const hooks = new Map(batch.map((item) => [item.mapped, item]));
    for (const result of await this.writer.write(batch.map((item) => item.mapped))) {
      const { resource } = result;
      if ('refused' in result) {
        this.summary.skip(resource.position, result.refused, resource.type);
        hooks.get(resource)?.onRefused?.();
        continue;
      }
      this.written += 1;
      this.summary.counted(resource.type, result.outcome);
      if (result.outcome !== 'unchanged') this.noteChangedPatients(resource);
      resource.warnings.forEach((warning) => this.summary.warn(resource.position, resource.type, warning));
      hooks.get(resource)?.onWritten?.();
    }
  }
}
