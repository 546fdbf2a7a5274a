/**
 * The session control a cohort read or write opens with: the transaction forms of the reads (on the
 * embedded database, and the snapshot reads everywhere), the identity generation read and the
 * writer role. The statements over patient data are in `cohort.statements.ts`.
 */

/**
 * The one way into and out of the writer role, inside a transaction: the approval executor writes
 * an approved proposal's effect and the recompute its results as `vigil_writer` (may insert and
 * update the cohort's and the store's rows, never the audit trail).
 */
export const WRITER_SESSION = { become: 'SET LOCAL ROLE vigil_writer', leave: 'RESET ROLE' } as const;

/**
 * Opens every cohort read (see `CohortRepository.read`): a READ ONLY transaction as the SELECT-only
 * role, in one round trip (a parameterless simple query may hold several statements; the role
 * lasts until the transaction ends).
 */
export const READ_SESSION_BEGIN = 'BEGIN ISOLATION LEVEL READ COMMITTED, READ ONLY; SET LOCAL ROLE vigil_reader';

/** The identity generation (see the identity-generation migration): what a cached identity must have been heard at. */
export const IDENTITY_GENERATION = 'SELECT generation::text AS generation FROM identity_generation';

/**
 * Opens a read that may answer the caller's identity from the process's cache (`IdentityCache`): as
 * `READ_SESSION_BEGIN`, and the identity generation read in the same round trip, before any other
 * statement of the read, so a change committed before the read began is one this read can see.
 */
export const IDENTITY_READ_SESSION_BEGIN = `${READ_SESSION_BEGIN}; ${IDENTITY_GENERATION}`;

/**
 * Opens a bulk chart read (`CohortRepository.charts`): as `READ_SESSION_BEGIN`, but REPEATABLE READ,
 * so the patients' data versions and all its statements see one snapshot.
 */
export const SNAPSHOT_SESSION_BEGIN = 'BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY; SET LOCAL ROLE vigil_reader';

/**
 * Opens the recompute's bulk chart read (`CohortRepository.charts`): as `SNAPSHOT_SESSION_BEGIN`,
 * without JIT compilation or parallel workers. A chunk's statements over-estimate their rows (250
 * patients' worth of `= ANY`), so the planner JIT-compiled each one (about 120 ms of emission per
 * statement, measured on the 100k cohort, more than the scan it sped up) and added two parallel
 * workers, which on a machine whose cores are already busy with other chunks only add CPU per row.
 * Both are per transaction (`SET LOCAL`): no other read changes.
 */
export const BULK_SNAPSHOT_SESSION_BEGIN = `${SNAPSHOT_SESSION_BEGIN}; SET LOCAL jit = off; SET LOCAL max_parallel_workers_per_gather = 0`;
