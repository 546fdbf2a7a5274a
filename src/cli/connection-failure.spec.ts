import { connectionFailure } from './connection-failure';

const URL_WITH_SECRET = 'postgres://vigil_owner:s3cret-pw@db.example.org:6543/vigil_prod';
const failing = (code: string) => Object.assign(new Error(`driver text naming s3cret-pw and ${code}`), { code });

describe(connectionFailure.name, () => {
  it.each([
    ['3D000', 'database "vigil_prod" does not exist on db.example.org:6543: create it with `createdb -h db.example.org -p 6543 -U vigil_owner vigil_prod`, then `npm run db:migrate` gives it the schema'],
    ['ECONNREFUSED', 'nothing accepts connections on db.example.org:6543: is Postgres running there?'],
    ['ENOTFOUND', 'the database host db.example.org cannot be resolved'],
    ['EAI_AGAIN', 'the database host db.example.org cannot be resolved'],
    ['ETIMEDOUT', 'Postgres on db.example.org:6543 did not answer in time'],
    ['28P01', 'Postgres on db.example.org:6543 refused the password of role "vigil_owner"'],
    ['28000', 'Postgres on db.example.org:6543 does not let role "vigil_owner" connect to database "vigil_prod" (no such role, or pg_hba.conf refuses it)'],
  ])('%s: one line saying what to do, without the password or the driver text', (code, line) => {
    const said = connectionFailure(failing(code), URL_WITH_SECRET);
    expect(said).toBe(line);
    expect(said).not.toMatch(/s3cret|driver text|\n/);
  });

  it('reads the code of a refused connection to a name with several addresses (an AggregateError)', () => {
    const refused = new AggregateError([failing('ECONNREFUSED'), failing('ECONNREFUSED')]);
    expect(connectionFailure(refused, 'postgres://localhost/vigil')).toBe('nothing accepts connections on localhost:5432: is Postgres running there?');
  });

  it('names the default port, and the role as the database when the URL names none (as libpq does)', () => {
    expect(connectionFailure(failing('3D000'), 'postgres://alice@127.0.0.1')).toBe(
      'database "alice" does not exist on 127.0.0.1:5432: create it with `createdb -h 127.0.0.1 -p 5432 -U alice alice`, then `npm run db:migrate` gives it the schema',
    );
  });

  it.each([
    ['another database error', failing('42P01')],
    ['an error without a code', new Error('boom')],
    ['not an error', 'text'],
  ])('leaves %s to the fuller report', (_what, error) => {
    expect(connectionFailure(error, URL_WITH_SECRET)).toBeUndefined();
  });
});
