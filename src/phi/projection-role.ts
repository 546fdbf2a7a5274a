import { StaffRole } from '../common/roles';

/**
 * Whose view a result is cut for: a staff role, or `agent` — the projection a model reads through
 * (no direct identifiers, clinical dates kept), used when the agent calls a tool for a clinician.
 */
export type ProjectionRole = StaffRole | 'agent';

export const PROJECTION_ROLES: readonly ProjectionRole[] = [...Object.values(StaffRole), 'agent'];
