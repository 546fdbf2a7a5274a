import { SetMetadata } from '@nestjs/common';
import { StaffRole } from '../common/roles';

export const ROLES_KEY = 'vigil:roles';
export const PUBLIC_KEY = 'vigil:public';

/** The roles allowed on a route. A route without @Roles or @Public is refused: deny by default. */
export const Roles = (...roles: StaffRole[]) => SetMetadata(ROLES_KEY, roles);

/** A route anyone may call without a token (health, docs). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

/** Marks a route whose every access, refused or not, is a PHI access to audit under this action name. */
export const AUDITED_ACTION_KEY = 'vigil:audited-action';
export const AuditedAction = (action: string) => SetMetadata(AUDITED_ACTION_KEY, action);

export const IDENTITY_IN_READ_KEY = 'vigil:identity-in-read';
/**
 * The route's handler starts with one cohort read (`CohortRepository.inOneRead`) and waits on no
 * other connection before it: the guard's identity lookup may then leave its read open for that
 * read to continue (one connection checkout per request instead of two; on the embedded database,
 * where reads are transactions, one BEGIN and COMMIT instead of two).
 */
export const IdentityInRead = () => SetMetadata(IDENTITY_IN_READ_KEY, true);
