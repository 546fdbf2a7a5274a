import { CohortSchema1764450000000 } from './1764450000000-cohort-schema';

/** Every migration, in order. Listed explicitly so the compiled app and ts-jest load the same set. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const MIGRATIONS: Function[] = [CohortSchema1764450000000];
