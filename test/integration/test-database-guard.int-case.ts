import { assertTestDatabaseName, createDatabase, databaseUrl, dropDatabase } from '../setup/test-database';

describe('test database guard', () => {
  it.each(['postgres', 'test', 'vigil', 'vigil_prod', 'root', 'vigil_test', 'vigil_test_X; DROP DATABASE postgres', 'my_vigil_test_db'])(
    'refuses %p',
    (name) => {
      expect(() => assertTestDatabaseName(name)).toThrow(/Refusing to use database/);
    },
  );

  it('accepts names that mark a disposable Vigil test database', () => {
    expect(() => assertTestDatabaseName('vigil_test_1234_template')).not.toThrow();
  });

  it('guards every entry point that touches a database', async () => {
    expect(() => databaseUrl('postgres')).toThrow(/Refusing/);
    await expect(createDatabase('postgres_copy')).rejects.toThrow(/Refusing/);
    await expect(createDatabase('vigil_test_ok', 'postgres')).rejects.toThrow(/Refusing/);
    await expect(dropDatabase('test')).rejects.toThrow(/Refusing/);
  });
});
