import type { JWTPayload } from 'jose';
import { StaffRole } from '../common/roles';
import { IdentityClaim } from '../config/auth-environment';
import { admit, claimAt, IdentitySettings, SignInRefusal, staffLookup, TokenSource } from './identity-rule';

const settings = (claim: IdentityClaim, extra: Partial<IdentitySettings> = {}): IdentitySettings => ({ claim, npiClaim: 'npi', roleMap: {}, cache: true, ...extra });
const token = (claims: JWTPayload, source: TokenSource = 'provider') => ({ source, claims: { iss: 'https://idp.example.org', ...claims } });
const ACTIVE = { role: StaffRole.Reviewer, active: true };
const INACTIVE = { role: StaffRole.Reviewer, active: false };

/** What the rule decides for a token and the staff row its lookup found (null: none). */
function decide(claims: JWTPayload, config: IdentitySettings, staff: typeof ACTIVE | null, source: TokenSource = 'provider') {
  const lookup = staffLookup(token(claims, source), config);
  const admission = admit(lookup, lookup ? staff : null, token(claims, source), config);
  return { lookup, outcome: admission.admitted ? `admitted as ${admission.role}` : admission.refusal };
}

describe('the identity rule: which staff member a token names, and whether they may sign in', () => {
  /** Per configured claim: a token carrying it, one without it, one with it malformed, and the lookup expected. */
  const kinds: Array<[IdentityClaim, JWTPayload, JWTPayload, JWTPayload, { by: string; value: string }]> = [
    [IdentityClaim.Username, { sub: 'rev.santos' }, {}, { sub: 'rev.santos\u0000' }, { by: 'username', value: 'rev.santos' }],
    [IdentityClaim.Subject, { sub: '248289761001' }, {}, { sub: 'a\nb' }, { by: 'subject', value: '248289761001' }],
    [IdentityClaim.Email, { sub: 'x', email: 'Lucia.Santos@Example.org' }, { sub: 'x' }, { sub: 'x', email: 'not-an-address' }, { by: 'email', value: 'Lucia.Santos@Example.org' }],
    [IdentityClaim.Npi, { sub: 'x', npi: '1234567893' }, { sub: 'x' }, { sub: 'x', npi: '12345' }, { by: 'npi', value: '1234567893' }],
  ];

  describe.each(kinds)('AUTH_IDENTITY_CLAIM=%s', (claim, present, absent, malformed, lookup) => {
    const config = settings(claim);
    it('present and held by an active staff member: admitted, with the row’s role', () => {
      expect(decide(present, config, ACTIVE)).toEqual({ lookup, outcome: 'admitted as reviewer' });
    });
    it('absent: refused before any lookup', () => {
      expect(decide(absent, config, ACTIVE)).toEqual({ lookup: null, outcome: SignInRefusal.NoIdentityClaim });
    });
    it('malformed: refused before any lookup', () => {
      expect(decide(malformed, config, ACTIVE)).toEqual({ lookup: null, outcome: SignInRefusal.NoIdentityClaim });
    });
    it('held by nobody: refused, never created', () => {
      expect(decide(present, config, null)).toEqual({ lookup, outcome: SignInRefusal.UnknownIdentity });
    });
    it('held by a deactivated staff member: refused', () => {
      expect(decide(present, config, INACTIVE)).toEqual({ lookup, outcome: SignInRefusal.Inactive });
    });
    it('a development token names a username whatever the setting', () => {
      expect(decide({ sub: 'rev.santos', email: 'someone@example.org', npi: '1234567893' }, config, ACTIVE, 'development')).toEqual({
        lookup: { by: 'username', value: 'rev.santos' },
        outcome: 'admitted as reviewer',
      });
    });
  });

  it('refuses a row whose role Vigil does not know', () => {
    expect(decide({ sub: 'x' }, settings(IdentityClaim.Username), { role: 'admin', active: true } as never).outcome).toBe(SignInRefusal.UnknownRole);
  });

  it('refuses an e-mail the provider says it has not verified, and accepts one it says it has', () => {
    const config = settings(IdentityClaim.Email);
    expect(decide({ email: 'a@example.org', email_verified: false }, config, ACTIVE).outcome).toBe(SignInRefusal.NoIdentityClaim);
    expect(decide({ email: 'a@example.org', email_verified: 'false' }, config, ACTIVE).outcome).toBe(SignInRefusal.NoIdentityClaim);
    expect(decide({ email: 'a@example.org', email_verified: true }, config, ACTIVE).outcome).toBe('admitted as reviewer');
    expect(decide({ email: `${'a'.repeat(250)}@example.org` }, config, ACTIVE).outcome).toBe(SignInRefusal.NoIdentityClaim);
  });

  it('reads the NPI from the configured claim: a number, a URL-namespaced name, a nested path', () => {
    expect(decide({ npi: 1234567893 }, settings(IdentityClaim.Npi), ACTIVE).lookup).toEqual({ by: 'npi', value: '1234567893' });
    expect(decide({ 'https://example.org/npi': '1234567893' }, settings(IdentityClaim.Npi, { npiClaim: 'https://example.org/npi' }), ACTIVE).lookup).toEqual({ by: 'npi', value: '1234567893' });
    expect(decide({ ids: { npi: '1234567893' } }, settings(IdentityClaim.Npi, { npiClaim: 'ids.npi' }), ACTIVE).lookup).toEqual({ by: 'npi', value: '1234567893' });
    expect(decide({ npi: '1234567893' }, settings(IdentityClaim.Npi, { npiClaim: 'ids.npi' }), ACTIVE).lookup).toBeNull();
    expect(decide({ npi: ['1234567893'] }, settings(IdentityClaim.Npi), ACTIVE).lookup).toBeNull();
  });

  describe('with AUTH_ROLE_CLAIM: the provider’s groups must grant the staff row’s role', () => {
    const config = settings(IdentityClaim.Subject, { roleClaim: 'groups', roleMap: { 'vigil-reviewers': StaffRole.Reviewer, 'vigil-clinicians': StaffRole.Clinician } });
    it.each<[string, JWTPayload, string]>([
      ['a group mapping to the row’s role', { groups: ['staff', 'vigil-reviewers'] }, 'admitted as reviewer'],
      ['groups mapping to several roles, the row’s among them', { groups: ['vigil-clinicians', 'vigil-reviewers'] }, 'admitted as reviewer'],
      ['one group given as a string', { groups: 'vigil-reviewers' }, 'admitted as reviewer'],
      ['no groups claim', {}, SignInRefusal.NoGroupRole],
      ['groups that map to no role', { groups: ['staff', 'everyone'] }, SignInRefusal.NoGroupRole],
      ['a groups claim of another type', { groups: { 'vigil-reviewers': true } }, SignInRefusal.NoGroupRole],
      ['a group named like an inherited property', { groups: ['constructor', 'toString'] }, SignInRefusal.NoGroupRole],
      ['groups granting only another role (never raised to it)', { groups: ['vigil-clinicians'] }, SignInRefusal.GroupRoleMismatch],
    ])('%s: %s', (_name, groups, outcome) => {
      expect(decide({ sub: 's-1', ...groups }, config, ACTIVE).outcome).toBe(outcome);
    });
    it('a deactivated member is refused whatever their groups', () => {
      expect(decide({ sub: 's-1', groups: ['vigil-reviewers'] }, config, INACTIVE).outcome).toBe(SignInRefusal.Inactive);
    });
    it('development tokens carry no groups: the row decides', () => {
      expect(decide({ sub: 'rev.santos' }, config, ACTIVE, 'development').outcome).toBe('admitted as reviewer');
    });
    it('reads a nested groups claim (Keycloak’s realm_access.roles)', () => {
      const nested = { ...config, roleClaim: 'realm_access.roles' };
      expect(decide({ sub: 's-1', realm_access: { roles: ['vigil-reviewers'] } }, nested, ACTIVE).outcome).toBe('admitted as reviewer');
    });
  });

  it('claimAt prefers a top-level claim of the exact name over a dotted path', () => {
    expect(claimAt({ 'a.b': 1, a: { b: 2 } }, 'a.b')).toBe(1);
    expect(claimAt({ a: { b: 2 } }, 'a.b')).toBe(2);
    expect(claimAt({ a: 'x' }, 'a.length')).toBeUndefined();
  });
});
