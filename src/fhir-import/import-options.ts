import { CodePredicate } from './codes';
import { AccessLossHook } from './directory.repository';
import { ImportNeeds } from './measure-needs-tally';

/** What an import is asked to do, and what it reports as it goes: the importer's whole interface besides its summary. */
export interface ImportOptions {
  /**
   * The care team every imported patient joins; it must exist. Without it, patients join the teams
   * the input's CareTeams (or earlier ones) give them, and a patient on no team is reported.
   */
  careTeamCode?: string;
  /**
   * The source system (`--source`): ids are v5 UUIDs in this source's namespace, so two EHRs'
   * `Patient/123` stay two patients. Default `default`, whose ids are those imports always had.
   */
  source?: string;
  /** Prefers, among a concept's codings, one a value set knows (the terminology module, when present). */
  isKnownCode?: CodePredicate;
  /**
   * Each Bundle is one patient's record (`--patient-bundles`): in a Bundle holding exactly one
   * Patient, a subject that resolves to no Patient of the import is read as that Patient, with a
   * warning. This is how CQL engines read a patient Bundle (the stewards' test cases rely on it);
   * off by default, because in other data it could give a record to the wrong patient.
   */
  patientBundles?: boolean;
  /** Resources per transaction (default 500). */
  batchSize?: number;
  /**
   * Told, inside the transaction, whenever the import takes access away (a Practitioner deactivated,
   * a member or patient leaving a team), so what must end with it commits with it (the CLI's cut-off).
   */
  onAccessLoss?: AccessLossHook;
  /** Stops after the batch being written: what was written stays, and a re-run finishes the job. */
  signal?: AbortSignal;
  onProgress?: (progress: ImportProgress) => void;
  /** "Now" for the future-birth-date check (tests fix it). */
  now?: Date;
  /**
   * The loaded measures' data requirements: the summary then says, per requirement, how many of the
   * resources this import stored (or carried, for a type Vigil does not store) meet it.
   */
  measureNeeds?: ImportNeeds;
}

export interface ImportProgress {
  pass: number;
  passes: number;
  label: string;
  /** Bytes read over all passes so far, of `bytesTotal` (every file is read once per pass). */
  bytesDone: number;
  bytesTotal: number;
  /** Resources written (loaded, updated or already present) so far. */
  written: number;
}

export class UnknownCareTeamError extends Error {
  constructor(readonly knownCodes: string[]) {
    super('Unknown care team');
    this.name = 'UnknownCareTeamError';
  }
}
