/**
 * The shape of `vsac-expansions.json`, shared by the generator that writes it and the run-time API
 * that reads it (so neither can drift from the other without the compiler noticing).
 */

/** Where the expansions came from: the eCQM content snapshot, as its README names it. */
export interface TerminologySource {
  /** GitHub repository (`owner/name`) of the eCQM content. */
  repository: string;
  /** The commit the snapshot was taken at. */
  commit: string;
  /** The date of that commit (`YYYY-MM-DD`). */
  date: string;
  licence: string;
  /** The folder of that repository the ValueSet resources come from. */
  upstreamPath: string;
  valueSetCount: number;
  /** Distinct (system, code) pairs summed over all value sets. */
  codeCount: number;
  /** `expansion.identifier` of the value sets (VSAC's expansion release labels), distinct, sorted. */
  expansionIdentifiers: readonly string[];
  /** The earliest and latest `expansion.timestamp`, as written in the source. */
  expansionTimestamps: { readonly earliest: string; readonly latest: string };
}

/** `[code, display]`: a tuple rather than an object keeps ~10 000 codes small on disk. */
export type ArtifactCode = [code: string, display: string];

export interface ArtifactValueSet {
  oid: string;
  /** The ValueSet resource's computable `name` (e.g. `ONCAdministrativeSex`). */
  name: string;
  title: string;
  /** The value set version VSAC expanded (`ValueSet.version`). */
  version: string;
  /** The names the measure CQL declares this OID under (`valueset "…": '…'`). */
  cqlNames: string[];
  expansion: { identifier: string; timestamp: string };
  /** Code system versions the expansion drew on, per system (informational: membership ignores them). */
  codeSystemVersions: Record<string, string[]>;
  /** Codes per code system URI, sorted by code. */
  codes: Record<string, ArtifactCode[]>;
}

export interface TerminologyArtifact {
  format: 1;
  source: TerminologySource;
  /** Sorted by OID. */
  valueSets: ArtifactValueSet[];
}
