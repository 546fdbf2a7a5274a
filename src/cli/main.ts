import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ConfigError, loadConfig } from '../config/load-config';
import { dataSourceOptions } from '../data-source';
import { describeDatabaseUrl } from '../database/schema';
import { toSafeError } from '../common/logging/log-redaction';
import { COMMANDS } from './commands';
import { OFFLINE_COMMANDS } from './offline-commands';

const out = (line: string) => process.stdout.write(`${line}\n`);

function usage(): void {
  out('usage: node dist/src/cli/main.js <command> [options]   (or the npm scripts: db:migrate, db:seed, token, …)');
  for (const command of [...Object.values(COMMANDS), ...Object.values(OFFLINE_COMMANDS)]) {
    out(`  ${command.usage.padEnd(32)} ${command.summary}`);
  }
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const offline = name ? OFFLINE_COMMANDS[name] : undefined;
  if (offline) return offline.run(args, out);
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    usage();
    return 2;
  }
  const config = loadConfig();
  if (!config.database.url) {
    out(
      'DATABASE_URL is not set. The CLI works on a Postgres server you name; ' +
        '`npm start` migrates and seeds its embedded database by itself.',
    );
    return 2;
  }
  // Commands are the operator's (migrations, bulk loads, verification): run as the tables' owner when the roles are split.
  const url = config.database.migrationUrl ?? config.database.url;
  out(`Database: ${describeDatabaseUrl(url)}`);
  const dataSource = new DataSource(dataSourceOptions({ url, poolSize: 1 }));
  await dataSource.initialize();
  try {
    return await command.run(dataSource, args, out);
  } finally {
    await dataSource.destroy();
  }
}

main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    if (error instanceof ConfigError) console.error(error.message);
    else console.error('Command failed:', JSON.stringify(error instanceof Error ? toSafeError(error) : error));
    process.exit(1);
  });
