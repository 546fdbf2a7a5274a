import { operatingSystemUser } from '../../src/cli/cli-audit';
import { COMMANDS } from '../../src/cli/commands';
import { useSeededDatabase } from '../setup/database';

describe('CLI commands', () => {
  const database = useSeededDatabase();
  const run = async (name: string, args: string[] = []) => {
    const lines: string[] = [];
    const code = await COMMANDS[name].run(database().dataSource, args, (line) => lines.push(line));
    return { code, output: lines.join('\n') };
  };

  it('migrate: nothing pending on a migrated database', async () => {
    expect(await run('migrate')).toEqual({ code: 0, output: 'Schema is up to date.' });
  });

  it('schema-check: entities and migrations agree', async () => {
    expect(await run('schema-check')).toEqual({ code: 0, output: 'Entities and migrations agree.' });
  });

  it('schema-check: names the DDL of a missing migration and fails', async () => {
    await database().dataSource.query(`DROP INDEX "IDX_observations_code"`);
    const result = await run('schema-check');
    expect(result.code).toBe(1);
    expect(result.output).toContain('CREATE INDEX "IDX_observations_code"');
    await database().dataSource.query(`CREATE INDEX "IDX_observations_code" ON "observations" ("code_system", "code")`);
  });

  it('seed: loads again safely and reports the anchor and counts', async () => {
    const result = await run('seed', ['--anchor', '2026-06-30']);
    expect(result.code).toBe(0);
    expect(result.output).toMatch(/anchor 2026-06-30.*patients=\d+/);
  });

  it('seed: refuses --anchor without a date', async () => {
    expect((await run('seed', ['--anchor'])).code).toBe(2);
  });

  it('revert: refuses to drop the schema without --all', async () => {
    expect(await run('revert')).toEqual({ code: 2, output: 'Refusing to drop the schema without --all.' });
  });

  it('audits the commands that write or drop PHI as the operating-system user who ran them (channel cli), one row per run', async () => {
    const rows = () =>
      database().dataSource.query(
        `SELECT action, outcome, channel, actor_id AS "actorId", actor_role AS "actorRole", actor_name AS "actorName", patient_id AS "patientId", correlation_id AS "correlationId"
         FROM audit_events WHERE channel = 'cli' ORDER BY id`,
      );
    const before = (await rows()).length;
    await run('seed', ['--anchor', '2026-06-30']);
    await run('seed', ['--anchor']);
    await run('revert');
    await run('import-fhir', ['--care-team']);
    const added = (await rows()).slice(before);
    const who = { channel: 'cli', actorId: null, actorRole: 'cli', actorName: operatingSystemUser(), patientId: null, correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/) };
    expect(added).toEqual([
      { ...who, action: 'cli.seed', outcome: 'success' },
      { ...who, action: 'cli.seed', outcome: 'invalid' },
      { ...who, action: 'cli.revert', outcome: 'invalid' },
      { ...who, action: 'cli.import_fhir', outcome: 'invalid' },
    ]);
    expect(operatingSystemUser()).not.toBe('');
  });
});
