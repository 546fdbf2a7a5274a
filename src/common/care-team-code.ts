/**
 * A care team's code: the short stable handle (`primary-care-north`) routes, filters, the admin
 * commands and the FHIR import all name a team by. One rule, so a team one of them creates is one
 * every other can name.
 */
export const CARE_TEAM_CODE = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** The rule in words, for refusals. */
export const CARE_TEAM_CODE_RULE = '1–64 lower-case letters, digits or hyphens, starting with a letter or digit';
