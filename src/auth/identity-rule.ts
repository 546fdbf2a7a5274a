import type { JWTPayload } from 'jose';
import type { StaffLookup } from '../cohort/cohort.repository';
import { StaffRole } from '../common/roles';
import { isSingleLineText } from '../common/validation/text';
import type { AuthConfig } from '../config/app-config';
import { IdentityClaim } from '../config/auth-environment';

/**
 * The one rule for who a signed-in identity is in Vigil: which staff member a verified token names
 * (by the claim AUTH_IDENTITY_CLAIM chooses), and whether that member may be signed in. Pure: the
 * auth guard reads the staff row in between. Nobody is ever created from a token: an identity Vigil
 * does not know is refused, however good its signature.
 */

export type IdentitySettings = AuthConfig['identity'];

/** Where a verified token came from: the local development key (its `sub` is a username) or the identity provider. */
export type TokenSource = 'development' | 'provider';

export interface SignedInToken {
  source: TokenSource;
  claims: JWTPayload;
}

/** Why a verified token signs nobody in; recorded in the audit trail (`reason:<value>`), never told to the caller. */
export enum SignInRefusal {
  /** The configured claim is missing or malformed (or the provider says the e-mail is unverified). */
  NoIdentityClaim = 'no_identity_claim',
  /** No staff member holds this identifier. */
  UnknownIdentity = 'unknown_identity',
  /** The staff member is deactivated. */
  Inactive = 'inactive',
  /** The staff row holds a role Vigil does not know. */
  UnknownRole = 'unknown_role',
  /** The groups claim is missing, or none of its groups maps to a role. */
  NoGroupRole = 'no_group_role',
  /** The groups map to roles, but not to the staff member's. */
  GroupRoleMismatch = 'group_role_mismatch',
}

export type Admission<Staff> = { admitted: true; staff: Staff; role: StaffRole } | { admitted: false; refusal: SignInRefusal };

const STAFF_ROLES = new Set<string>(Object.values(StaffRole));
const NPI = /^\d{10}$/;
/** RFC 5321's limit on a path; anything longer names no mailbox. */
const MAX_EMAIL = 254;
const MAX_IDENTIFIER = 1000;

/**
 * A claim by name: a top-level claim of that exact name (a URL-namespaced one such as
 * `https://example.org/groups` included), else a dotted path into nested claims
 * (`realm_access.roles`).
 */
export function claimAt(claims: JWTPayload, name: string): unknown {
  if (Object.prototype.hasOwnProperty.call(claims, name)) return claims[name];
  let value: unknown = claims;
  for (const part of name.split('.')) {
    if (typeof value !== 'object' || value === null || !Object.prototype.hasOwnProperty.call(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

const usable = (value: unknown, max = MAX_IDENTIFIER): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= max && isSingleLineText(value);

/** Which staff member the token names, or null when it carries no usable identifier. Development tokens name a username. */
export function staffLookup(token: SignedInToken, settings: IdentitySettings): StaffLookup | null {
  const { claims } = token;
  const claim = token.source === 'development' ? IdentityClaim.Username : settings.claim;
  switch (claim) {
    case IdentityClaim.Username:
      return usable(claims.sub) ? { by: 'username', value: claims.sub } : null;
    case IdentityClaim.Subject:
      return usable(claims.sub) ? { by: 'subject', value: claims.sub } : null;
    case IdentityClaim.Email:
      // An address the provider itself says it has not verified proves nothing about who signed in.
      if (claims.email_verified === false || claims.email_verified === 'false') return null;
      return usable(claims.email, MAX_EMAIL) && claims.email.includes('@') ? { by: 'email', value: claims.email } : null;
    case IdentityClaim.Npi: {
      const npi = claimAt(claims, settings.npiClaim);
      const text = typeof npi === 'number' && Number.isSafeInteger(npi) ? String(npi) : npi;
      return typeof text === 'string' && NPI.test(text) ? { by: 'npi', value: text } : null;
    }
  }
}

/**
 * What is wrong with AUTH_ROLE_MAP's roles, or null: each must be a Vigil role. Checked when the auth
 * module starts (the configuration parses the map but sits below the roles' vocabulary).
 */
export function roleMapProblem(settings: IdentitySettings): string | null {
  const unknown = Object.values(settings.roleMap).filter((role) => !STAFF_ROLES.has(role));
  return unknown.length === 0 ? null : `AUTH_ROLE_MAP: each role must be one of ${[...STAFF_ROLES].join(', ')}`;
}

/** The roles the token's groups grant by AUTH_ROLE_MAP (a single string counts as one group). */
export function groupRoles(claims: JWTPayload, settings: IdentitySettings): Set<string> {
  if (!settings.roleClaim) return new Set();
  const value = claimAt(claims, settings.roleClaim);
  const groups = Array.isArray(value) ? value : [value];
  return new Set(groups.filter((group): group is string => typeof group === 'string' && Object.hasOwn(settings.roleMap, group)).map((group) => settings.roleMap[group]));
}

/**
 * Whether the staff member found for the token may be signed in. The role is always the staff row's
 * (one person, one role, set by the admin command or the FHIR import); with AUTH_ROLE_CLAIM the
 * provider's groups must grant that same role too, so removing someone from a group at the provider
 * takes effect at their next request, and a group can never raise anyone to a role the row does not
 * hold. Development tokens carry no groups and are judged by the row alone.
 */
export function admit<Staff extends { role: string; active: boolean }>(
  lookup: StaffLookup | null,
  staff: Staff | null,
  token: SignedInToken,
  settings: IdentitySettings,
): Admission<Staff> {
  if (!lookup) return { admitted: false, refusal: SignInRefusal.NoIdentityClaim };
  if (!staff) return { admitted: false, refusal: SignInRefusal.UnknownIdentity };
  if (!staff.active) return { admitted: false, refusal: SignInRefusal.Inactive };
  if (!STAFF_ROLES.has(staff.role)) return { admitted: false, refusal: SignInRefusal.UnknownRole };
  const role = staff.role as StaffRole;
  if (token.source === 'provider' && settings.roleClaim) {
    const granted = groupRoles(token.claims, settings);
    if (granted.size === 0) return { admitted: false, refusal: SignInRefusal.NoGroupRole };
    if (!granted.has(role)) return { admitted: false, refusal: SignInRefusal.GroupRoleMismatch };
  }
  return { admitted: true, staff, role };
}
