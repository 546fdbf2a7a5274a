/**
 * How far the background audit sealer is behind, as the metrics endpoint reports it: seconds since
 * the oldest audit event not yet sealed was written (`lagSeconds`, 0 when all are sealed), and the
 * age of the newest sealed checkpoint (`checkpointAgeSeconds`).
 */
export interface AuditSealStatus {
  lagSeconds: number;
  checkpointAgeSeconds: number;
}

/** What the sealer provides under `AUDIT_SEAL_STATUS`: its latest status, or null before its first pass. */
export interface AuditSealStatusSource {
  sealStatus(): AuditSealStatus | null | Promise<AuditSealStatus | null>;
}

/**
 * The token the audit sealer is provided under (`{ provide: AUDIT_SEAL_STATUS, useExisting: … }`,
 * exported by the audit module). Optional: where nothing provides it, the seal gauges are absent.
 */
export const AUDIT_SEAL_STATUS = Symbol('AUDIT_SEAL_STATUS');
