/**
 * Closed vocabulary of the audit trail. Also a CHECK constraint on `audit_events.outcome`, so an
 * outcome outside this list can never be stored, whoever writes it.
 */
export enum AuditOutcome {
  /** Data was returned. */
  Success = 'success',
  /** The caller was allowed and the query ran, but there was nothing to return. */
  Empty = 'empty',
  /** Authenticated, but the role or care-team check refused the access. */
  Denied = 'denied',
  /** The patient does not exist, or the caller may not know that it does (same answer by design). */
  NotFound = 'not_found',
  /** No valid identity: missing, expired, wrongly signed or unknown-user token. */
  Unauthenticated = 'unauthenticated',
  /** The request named a state that no longer holds (a stale version, a proposal no longer pending). */
  Conflict = 'conflict',
  /** The request was refused by validation before any data was read. */
  Invalid = 'invalid',
  /** The access failed unexpectedly; whether data left is unknown, so it is recorded too. */
  Error = 'error',
}

/**
 * How the access reached Vigil: a person over the REST API, a model reading for a clinician, the
 * service itself (the executor reading a chart), the MCP surface, or a command run on the server.
 * Also a CHECK constraint on `audit_events.channel`.
 */
export enum AuditChannel {
  Rest = 'rest',
  Agent = 'agent',
  System = 'system',
  Mcp = 'mcp',
  Cli = 'cli',
}
