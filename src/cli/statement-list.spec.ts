import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COHORT_STATEMENTS } from '../cohort/cohort.statements';
import { renderStatementsFile } from './statement-list';

describe('statement list', () => {
  it('matches the committed src/database/statements.sql (run `npm run sql:sync` after changing a statement)', () => {
    expect(readFileSync(join(__dirname, '..', 'database', 'statements.sql'), 'utf8')).toBe(renderStatementsFile());
  });

  it.each(Object.entries(COHORT_STATEMENTS))('cohort statement %s is one parameterised SELECT', (_name, sql) => {
    expect(sql).toMatch(/^SELECT /);
    expect(sql).not.toMatch(/;|\b(INSERT|UPDATE|DELETE|DROP|ALTER|CREATE|GRANT|TRUNCATE|COPY)\b/i);
    expect(sql).toMatch(/\$1\b/);
  });
});
