import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ConfigError, loadConfig } from '../config/load-config';
import { dataSourceOptions } from '../data-source';
import { describeDatabaseUrl } from '../database/schema';
import { toSafeError } from '../common/logging/log-redaction';
import { Command, COMMANDS } from './commands';
import { openEmbeddedDatabase } from './embedded-database';
import { connectionFailure } from './connection-failure';
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
    if (!command.embedded) {
      out(
        'DATABASE_URL is not set. The CLI works on a Postgres server you name; ' +
          '`npm start` migrates and seeds its embedded database by itself.',
      );
      return 2;
    }
    const embedded = await openEmbeddedDatabase(config.database.embeddedDir);
    if ('refusal' in embedded) {
      out(embedded.refusal);
      return 2;
    }
    out(`Database: the embedded database in ${embedded.location} (DATABASE_URL is not set)`);
    try {
      return await runCommand(command, embedded.url, args);
    } finally {
      await embedded.stop();
    }
  }
  // Commands are the operator's (migrations, bulk loads, verification): run as the tables' owner when the roles are split.
  const url = config.database.migrationUrl ?? config.database.url;
  out(`Database: ${describeDatabaseUrl(url)}`);
  return runCommand(command, url, args);
}

async function runCommand(command: Command, url: string, args: string[]): Promise<number> {
  const dataSource = new DataSource(dataSourceOptions({ url, poolSize: 1 }));
  try {
    await dataSource.initialize();
  } catch (error) {
    const failure = connectionFailure(error, url);
    if (!failure) throw error;
    console.error(failure);
    return 1;
  }
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
