import type { PatientChart } from './chart.types';
import type { RequestRead } from './read-session.repository';

/** The shapes the cohort repository's reads take and give (identities, time windows, bulk chart filters). */

export interface StaffIdentity {
  id: string;
  username: string;
  role: string;
  active: boolean;
  careTeamIds: string[];
  /** The codes of `careTeamIds`, in the same order. */
  careTeamCodes: string[];
}

/** The identifier a signed-in identity is matched by, and its value (see the auth module's identity rule). */
export interface StaffLookup {
  by: 'username' | 'subject' | 'email' | 'npi';
  value: string;
}

export interface StaffLookupOptions {
  /** Leave the read open in this request's place for it, for the request's `inOneRead` to continue (see `staffUserBy`). */
  keepOpenFor?: RequestRead;
  /** May answer from the process's identity cache (`IdentityCache`: never an identity older than a change committed before the read). */
  cached?: boolean;
}

/** A half-open time window [from, to); either end may be open (null). */
export interface TimeWindow {
  from: Date | null;
  to: Date | null;
}

/** A patient's chart read in bulk, with the data version it was read at (`patients.data_version`). */
export interface VersionedChart {
  chart: PatientChart;
  truncated: boolean;
  dataVersion: string;
}

/**
 * Which observations a bulk chart read returns: those with one of `codes` (any system), and of
 * those with one of `since.codes` only rows whose latest instant (effective end, else start) is at
 * or after `since.instant` (ISO-8601).
 */
export interface ObservationReadFilter {
  codes: readonly string[];
  since: { codes: readonly string[]; instant: string };
}

/**
 * Which encounters a bulk chart read returns: those without an end, those that ended at or after
 * `endedSince` (ISO-8601), and those typed with one of `allTimeCodes` (any system).
 */
export interface EncounterReadFilter {
  endedSince: string;
  allTimeCodes: readonly string[];
}

/** What a bulk chart read may leave out (each as `chart` would give it, filtered afterwards). */
export interface ChartReadFilters {
  observations?: ObservationReadFilter;
  encounters?: EncounterReadFilter;
}

/** The access probe's answer (`patientAccess`): whether the patient exists, and whether it is on one of the caller's care teams. */
export interface PatientProbe {
  exists: boolean;
  onCareTeam: boolean;
}

/**
 * A tool read with the access probe folded into its statement (`COHORT_STATEMENTS.gated*`): the
 * probe's inputs, and the access decision on its answer, taken before any row of the read is used.
 * The statement reads the data only for a patient on `careTeamIds`, or when `breakGlass`; the
 * decision itself is the access module's (`admit`), never the statement's.
 */
export interface AccessGate {
  readonly patientId: string;
  readonly careTeamIds: string[];
  /** Break glass is allowed for this call (already checked): the statement reads the data off the caller's teams too. */
  readonly breakGlass: boolean;
  /** Decides on the probe's answer; throws when the caller may not read the patient. */
  admit(probe: PatientProbe): void;
}
