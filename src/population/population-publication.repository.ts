import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Period } from '../clinical/shared/clinical-dates';
import { POPULATION_PUBLICATION_STATEMENTS as SQL } from './population-publications.sql';
import { PublicationRecord } from './population-counts';

/** A stored publication as served: no policy (the code's own), no check record. */
export interface StoredPublication {
  id: string;
  resultsVersion: string;
  computedAt: string | null;
  salt: string;
  counts: { tables: unknown[]; withheldTables: string[] };
}

export interface NewestPublication extends StoredPublication {
  checkRecord: PublicationRecord;
}

/** What storing a publication came to. */
export type StoreOutcome = 'stored' | 'version-already-published' | 'checked-against-a-stale-publication';

/** How many of the newest publications are kept (the newest is what the next one is checked with). */
const KEPT = 4;

/** Writes and reads `population_publications` with the fixed statements of population-publications.sql.ts. */
@Injectable()
export class PopulationPublicationRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async ofVersion(period: Period, resultsVersion: string): Promise<StoredPublication | undefined> {
    const rows = await this.dataSource.query<StoredPublication[]>(SQL.publicationOfVersion, [period.start, period.end, resultsVersion]);
    return rows[0];
  }

  /** The newest publication of any period: the one an analyst read last, whatever its period. */
  async newest(): Promise<NewestPublication | undefined> {
    const rows = await this.dataSource.query<NewestPublication[]>(SQL.latestPublication, []);
    return rows[0];
  }

  /**
   * Stores a publication checked against `checkedAfter` (the newest publication's id when the
   * check began, null when there was none), only if that is still the newest: otherwise another
   * process published in between, and this draw was never checked against what it served.
   */
  async store(period: Period, publication: Omit<StoredPublication, 'id'>, checkRecord: PublicationRecord, checkedAfter: string | null): Promise<StoreOutcome> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(SQL.lockPublications);
      const [newest] = await manager.query<{ id: string }[]>(SQL.latestPublicationId, []);
      if ((newest?.id ?? null) !== checkedAfter) {
        const [same] = await manager.query<unknown[]>(SQL.publicationOfVersion, [period.start, period.end, publication.resultsVersion]);
        return same ? 'version-already-published' : 'checked-against-a-stale-publication';
      }
      const { resultsVersion, computedAt, salt, counts } = publication;
      await manager.query(SQL.insertPublication, [period.start, period.end, resultsVersion, computedAt, salt, JSON.stringify(counts), JSON.stringify(checkRecord)]);
      await manager.query(SQL.prunePublications, [KEPT]);
      return 'stored';
    });
  }
}
