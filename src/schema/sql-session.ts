/**
 * A caller's open transaction, as code that must write inside it sees it (an audit row committed
 * with the state change it records): only its query method, so that code needs no database
 * package. TypeORM's EntityManager has this shape.
 */
export interface SqlSession {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query<T = any>(query: string, parameters?: unknown[]): Promise<T>;
}
