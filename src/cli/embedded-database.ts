import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EmbeddedDatabaseInUseError, EmbeddedPostgres, startEmbeddedPostgres } from '../database/embedded-postgres';

/**
 * Opens the embedded database `npm start` keeps in `dir` (EMBEDDED_DATABASE_DIR) for a command, or
 * says why it cannot: kept in memory (it ended with its server), never created, or open in a
 * running Vigil. PGlite is one backend that one process may open; the running server's own socket
 * is no way in either, since every client of it shares the server's session and transaction.
 */
export async function openEmbeddedDatabase(dir: string): Promise<EmbeddedPostgres | { refusal: string }> {
  if (dir.startsWith('memory://')) {
    return { refusal: 'EMBEDDED_DATABASE_DIR is memory://: that database lived in its server\'s memory and ended with it; there is nothing to open.' };
  }
  if (!existsSync(join(dir, 'PG_VERSION'))) return { refusal: `No embedded database in ${dir}: \`npm start\` creates it there (or set DATABASE_URL).` };
  try {
    return await startEmbeddedPostgres(dir);
  } catch (error) {
    if (!(error instanceof EmbeddedDatabaseInUseError)) throw error;
    return {
      refusal:
        `The embedded database in ${dir} is open in a running Vigil (process ${error.pid}), and only one process may open it. ` +
        'Stop that process (Ctrl-C), then run this command again: it reads the trail as the server left it.',
    };
  }
}
