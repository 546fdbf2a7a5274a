import { DataSource } from 'typeorm';
import * as fixtures from '../fixtures';
import { loadFixtureCohort } from './cohort/fixtures/fixture-loader';
import { dataSourceOptions } from './data-source';
import type { SeedFixtures } from './database/database-bootstrap';

/**
 * The seeding step start-up runs for the embedded database (or with FIXTURES_SEED_ON_START): the
 * fixture cohort at the anchor date. Start-up imports this file only when it seeds, so a production
 * start-up on its own database never loads the fixtures.
 */
export const seedFixtureCohort: SeedFixtures = async (url, anchorDate) => {
  const dataSource = new DataSource(dataSourceOptions({ url, poolSize: 1 }));
  await dataSource.initialize();
  try {
    const result = await loadFixtureCohort(dataSource, fixtures, anchorDate);
    return { anchorDate: result.anchorDate, patients: result.counts.patients, staffUsers: result.counts.staffUsers };
  } finally {
    await dataSource.destroy();
  }
};
