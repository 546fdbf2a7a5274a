import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DataSource } from 'typeorm';
import type { ElmLibrary, FhirMeasure, ValueSetResource } from '../clinical/elm';
import type { SqlSession } from '../schema/sql-session';
import type { MeasureGroupDefinition } from './measure-content';
import { MEASURE_LOAD_STATEMENTS as LOAD, MEASURE_NEEDS_STATEMENTS as NEEDS, MEASURE_PACKAGE_STATEMENTS as SQL } from './measure-packages.sql';
import type { ResolvedPackage } from './package-resolver';

/** One loaded edition of a measure: enough to choose it for a period. */
export interface LoadedEdition {
  id: string;
  key: string;
  url: string;
  version: string;
  edition: string;
  periodStart: string | null;
  periodEnd: string | null;
  loadedAt: string;
}

/** A loaded edition with what evaluating it needs: its title and groups. */
export interface EvaluableEdition extends LoadedEdition {
  title: string;
  groups: MeasureGroupDefinition[];
}

/** A `Measure.identifier` as published (the short name, the version-independent and version-specific ids, the CMS id). */
export interface MeasureIdentifier {
  system?: string;
  value?: string;
  type?: { coding?: { system?: string; code?: string }[] };
}

export interface CatalogueRow extends LoadedEdition {
  /** The Measure’s own identifiers, unchanged. */
  identifiers: MeasureIdentifier[];
  title: string;
  scoring: string;
  basis: string;
  groups: MeasureGroupDefinition[];
  loadedBy: string;
  libraryCount: number;
  valueSetCount: number;
  supplementedValueSetCount: number;
}

export type StoreOutcome =
  | { outcome: 'loaded'; id: string; newLibraries: number; newValueSets: number; newCodes: number }
  /** The same url and version, with the same content: nothing written. */
  | { outcome: 'already-loaded'; edition: string }
  /** The same url and version, with other content: refused, nothing written (a loaded measure never changes). */
  | { outcome: 'conflict'; edition: string };

export interface LoadedBy {
  loadedBy: string;
  correlationId: string;
}

/** What compiling one loaded edition takes: its Measure, its libraries' ELM, its value sets' codes. */
export interface PackageContent {
  measure: FhirMeasure;
  libraries: ElmLibrary[];
  valueSets: ValueSetResource[];
}

/** Rows per COPY write: a few hundred kilobytes at a time. */
const COPY_BATCH = 2_000;

/** COPY's text format: backslash, tab, newline and carriage return escaped; `\N` is null. */
const copyText = (value: string | null): string => (value === null ? '\\N' : value.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c] as string));

/** A stored expansion as the FHIR ValueSet the compiler reads. */
function valueSetResource({ url, version, codes }: { url: string; version: string | null; codes: [string, string][] }): ValueSetResource {
  return { resourceType: 'ValueSet', url, ...(version !== null ? { version } : {}), expansion: { contains: codes.map(([system, code]) => ({ system, code })) } };
}

/** Reads and writes the measure packages with the fixed statements of measure-packages.sql.ts. */
@Injectable()
export class MeasurePackagesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  catalogue(): Promise<CatalogueRow[]> {
    return this.dataSource.query<CatalogueRow[]>(SQL.catalogue, []);
  }

  editionsOf(key: string): Promise<LoadedEdition[]> {
    return this.dataSource.query<LoadedEdition[]>(SQL.editionsOfKey, [key]);
  }

  /** Every loaded edition of `keys`, with its title and groups: the catalogue's rows without its counts. */
  editionsOfKeys(keys: readonly string[]): Promise<EvaluableEdition[]> {
    return this.dataSource.query<EvaluableEdition[]>(SQL.editionsOfKeys, [keys]);
  }

  /** Every loaded edition, with its title and groups, by key. */
  allEditions(): Promise<EvaluableEdition[]> {
    return this.dataSource.query<EvaluableEdition[]>(SQL.evaluableEditions, []);
  }

  /** The content of the loaded edition `packageId` (null when none is stored under that id). */
  async contentOf(packageId: string): Promise<PackageContent | null> {
    const libraries = await this.dataSource.query<{ measure: FhirMeasure; elm: ElmLibrary }[]>(SQL.packageLibraries, [packageId]);
    if (libraries.length === 0) return null;
    const valueSets = await this.dataSource.query<{ url: string; version: string | null; codes: [string, string][] }[]>(SQL.packageValueSets, [packageId]);
    return {
      measure: libraries[0].measure,
      libraries: libraries.map((row) => row.elm),
      valueSets: valueSets.map(valueSetResource),
    };
  }

  /**
   * The content of many loaded editions at once, by package id: each shared library (FHIRHelpers,
   * QICoreCommon…) read and parsed once, and each expansion once for all of them (`valueSets`).
   */
  async contentsOf(packageIds: readonly string[]): Promise<{ packages: Map<string, Omit<PackageContent, 'valueSets'>>; valueSets: ValueSetResource[] }> {
    const rows = await this.dataSource.query<{ id: string; measure: FhirMeasure; libraryIds: number[] }[]>(NEEDS.packagesWithLibraries, [packageIds]);
    const libraryIds = [...new Set(rows.flatMap((row) => row.libraryIds))];
    const libraries = new Map((await this.dataSource.query<{ id: number; elm: ElmLibrary }[]>(NEEDS.librariesById, [libraryIds])).map((row) => [row.id, row.elm]));
    const packages = new Map(rows.map((row) => [row.id, { measure: row.measure, libraries: row.libraryIds.flatMap((id) => libraries.get(id) ?? []) }]));
    const valueSets = await this.dataSource.query<{ url: string; version: string | null; codes: [string, string][] }[]>(NEEDS.valueSetsOfPackages, [packageIds]);
    return { packages, valueSets: valueSets.map(valueSetResource) };
  }

  /**
   * Stores one package in one transaction, or finds it stored: libraries and expansions already
   * there (by content) are reused, not sent again; the codes of new expansions go in by COPY.
   * `record` writes the load's audit row inside the same transaction, whatever the outcome.
   */
  async store(pkg: ResolvedPackage, who: LoadedBy, record: (session: SqlSession, outcome: StoreOutcome) => Promise<void>): Promise<StoreOutcome> {
    const runner = this.dataSource.createQueryRunner();
    const client = (await runner.connect()) as PoolClient;
    try {
      await runner.startTransaction();
      await runner.query(LOAD.lockLoads);
      const outcome = await this.storeLocked(runner, client, pkg, who);
      await record(runner, outcome);
      await runner.commitTransaction();
      return outcome;
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      throw error;
    } finally {
      await runner.release();
    }
  }

  private async storeLocked(session: SqlSession, client: PoolClient, pkg: ResolvedPackage, who: LoadedBy): Promise<StoreOutcome> {
    const [existing] = await session.query<{ id: string; edition: string; contentHash: string }[]>(LOAD.packageOf, [pkg.url, pkg.version]);
    if (existing) return { outcome: existing.contentHash === pkg.contentHash ? 'already-loaded' : 'conflict', edition: existing.edition };

    const libraryIds = await this.idsByHash(session, LOAD.librariesByHash, pkg.libraries.map((library) => library.hash));
    let newLibraries = 0;
    for (const library of pkg.libraries) {
      if (libraryIds.has(library.hash)) continue;
      const [row] = await session.query<{ id: number; contentHash: string }[]>(LOAD.insertLibrary, [library.name, library.version, library.url, library.hash, library.elmText, library.cql]);
      libraryIds.set(row.contentHash, row.id);
      newLibraries += 1;
    }

    const valueSetIds = await this.idsByHash(session, LOAD.valueSetsByHash, pkg.valueSets.map((valueSet) => valueSet.hash));
    const fresh = [...new Map(pkg.valueSets.filter((valueSet) => !valueSetIds.has(valueSet.hash)).map((valueSet) => [valueSet.hash, valueSet])).values()];
    let newCodes = 0;
    if (fresh.length > 0) {
      const rows = fresh.map(({ expansion, hash }) => ({
        url: expansion.url, version: expansion.version, title: expansion.title, identifier: expansion.identifier, timestamp: expansion.timestamp, codeCount: expansion.codes.length, contentHash: hash,
      }));
      for (const row of await session.query<{ id: number; contentHash: string }[]>(LOAD.insertValueSets, [JSON.stringify(rows)])) valueSetIds.set(row.contentHash, row.id);
      newCodes = await this.copyCodes(client, fresh.map((valueSet) => ({ id: valueSetIds.get(valueSet.hash) as number, codes: valueSet.expansion.codes })));
    }

    const [{ id }] = await session.query<{ id: string }[]>(LOAD.insertPackage, [
      pkg.url, pkg.version, pkg.key, pkg.title, pkg.edition, pkg.scoring, pkg.basis, JSON.stringify(pkg.groups), pkg.period?.start ?? null, pkg.period?.end ?? null,
      libraryIds.get(pkg.primaryLibrary.hash), JSON.stringify(pkg.measure), pkg.contentHash, who.loadedBy, who.correlationId,
    ]);
    await session.query(LOAD.insertPackageLibraries, [id, [...new Set(pkg.libraries.map((library) => libraryIds.get(library.hash)))]]);
    const links = pkg.valueSets.map((valueSet) => ({ id: valueSetIds.get(valueSet.hash), names: valueSet.names, fromSupplement: valueSet.fromSupplement }));
    await session.query(LOAD.insertPackageValueSets, [id, JSON.stringify(links)]);
    return { outcome: 'loaded', id, newLibraries, newValueSets: fresh.length, newCodes };
  }

  private async idsByHash(session: SqlSession, statement: string, hashes: string[]): Promise<Map<string, number>> {
    const rows = await session.query<{ id: number; contentHash: string }[]>(statement, [[...new Set(hashes)]]);
    return new Map(rows.map((row) => [row.contentHash, row.id]));
  }

  /** One COPY for every code of the new expansions (a measure's may hold tens of thousands). */
  private async copyCodes(client: PoolClient, expansions: { id: number; codes: { system: string; code: string; display: string | null }[] }[]): Promise<number> {
    const rows = expansions.flatMap(({ id, codes }) => codes.map((code) => `${id}\t${copyText(code.system)}\t${copyText(code.code)}\t${copyText(code.display)}\n`));
    const chunks = function* () {
      for (let start = 0; start < rows.length; start += COPY_BATCH) yield rows.slice(start, start + COPY_BATCH).join('');
    };
    await pipeline(Readable.from(chunks()), client.query(copyFrom(LOAD.copyValueSetCodes)));
    return rows.length;
  }
}
