/**
 * Patient search terms as the database compares them: the search forms, the name key (the same
 * steps as SQL's `vigil_name_key`) and the LIKE patterns the name search statement takes.
 */

/**
 * A patient search: an MRN (any case), or name-key prefixes (see `nameKey`) with an optional birth
 * date: a family name with an optional given name, or the whole name in either order.
 */
export type PatientSearch = { mrn: string } | ({ birthDate?: string } & ({ familyPrefix: string; givenPrefix?: string } | { wholeNamePrefix: string }));

/** What `nameKey` drops: whitespace, apostrophes, hyphens and dashes, full stops (as `vigil_name_key`). */
// eslint-disable-next-line no-control-regex -- tab, line feeds and the like are whitespace in a name
const NAME_SEPARATORS = /[\u0009-\u000d\u0020\u00a0\u2000-\u200b\u202f\u205f\u3000'\u0060\u00b4\u02bc\u2018\u2019\-\u2010-\u2015.]/g;

/**
 * A name as the database's `vigil_name_key` compares it: decomposed (NFD), combining marks removed,
 * lower-cased, separators dropped, a Greek final sigma as a sigma ("O'Brien-Núñez" → "obriennunez").
 * The search term is keyed here with the same steps as the stored names in SQL (an integration test
 * holds the two together).
 */
export function nameKey(name: string): string {
  return name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(NAME_SEPARATORS, '').replace(/ς/g, 'σ');
}

/** A term as a LIKE prefix: its own `%`, `_` and `\\` match themselves, not anything. */
function likePrefix(term: string): string {
  return `${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** A name search as `patientsByName`'s patterns: family, given, whole name (NULL where not given). */
export function namePatterns(search: Exclude<PatientSearch, { mrn: string }>): [string | null, string | null, string | null] {
  if ('wholeNamePrefix' in search) return [null, null, likePrefix(search.wholeNamePrefix)];
  return [likePrefix(search.familyPrefix), search.givenPrefix ? likePrefix(search.givenPrefix) : null, null];
}
