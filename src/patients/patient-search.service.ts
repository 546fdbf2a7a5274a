import { HttpStatus, Injectable } from '@nestjs/common';
import { AccessContext } from '../access/access-context';
import { AccessService } from '../access/access.service';
import { CohortRepository } from '../cohort/cohort.repository';
import { nameKey, PatientSearch } from '../cohort/patient-search-terms';
import { ProblemException } from '../common/http/problem';
import { project } from '../phi/projector';
import { todayUtc } from '../tools/envelope';
import { patientHeader } from '../tools/patient-header';
import { AuditedAccess } from '../access/audited-access.service';
import { PatientSearchQueryDto, PatientSearchResultDto, SEARCH_LIMIT_DEFAULT } from './patient-search.dto';

type SearchedBy = 'mrn' | 'name' | 'name_birth_date';

const invalidSearch = (field: string, reason: string, message: string) =>
  new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', `The search is invalid: ${message}.`, [{ field, reason, message }]);

/** The query as one of the two search forms; anything else is a 400 naming the parameter. */
function searchOf(query: PatientSearchQueryDto): { search: PatientSearch; searchedBy: SearchedBy } {
  if (query.mrn !== undefined && query.name !== undefined) throw invalidSearch('name', 'exclusive', 'give either mrn or name, not both');
  if (query.mrn !== undefined) {
    if (query.birthDate !== undefined) throw invalidSearch('birthDate', 'exclusive', 'birthDate narrows a search by name, not by mrn');
    const mrn = query.mrn.trim();
    if (mrn === '') throw invalidSearch('mrn', 'isNotEmpty', 'mrn must not be blank');
    return { search: { mrn }, searchedBy: 'mrn' };
  }
  if (query.name === undefined) throw invalidSearch('name', 'required', 'give mrn, or name (with birthDate if you have it)');
  const byName = nameSearchOf(query.name);
  return {
    search: { ...byName, ...(query.birthDate ? { birthDate: query.birthDate } : {}) },
    searchedBy: query.birthDate ? 'name_birth_date' : 'name',
  };
}

/**
 * The forms a name is typed in, compared by name key (`nameKey`: no accents, case, spaces,
 * apostrophes or hyphens): "family, given" (each a prefix: "nunez, ma"); one word, a family-name
 * prefix ("obrien"); several words, the whole name either way round ("Deshawn Pruitt", "Pruitt
 * Deshawn"; the last word may be cut short). A family name, or a whole name, needs 2 characters.
 */
function nameSearchOf(name: string): { familyPrefix: string; givenPrefix?: string } | { wholeNamePrefix: string } {
  const minimum = () => invalidSearch('name', 'minLength', 'the family name needs at least 2 letters or digits');
  if (name.includes(',')) {
    const [family, given] = name.split(',', 2).map(nameKey);
    if (family.length < 2) throw minimum();
    return { familyPrefix: family, ...(given ? { givenPrefix: given } : {}) };
  }
  const key = nameKey(name);
  if (key.length < 2) throw minimum();
  return name.trim().split(/\s+/).length > 1 ? { wholeNamePrefix: key } : { familyPrefix: key };
}

/**
 * Finding a patient without their id: only among the caller's care teams (a patient elsewhere is
 * never read, so it looks exactly like one that does not exist), bounded, each shown patient
 * projected for the caller's role and audited. The audit rows say which form of search ran and
 * which patients were shown, never the terms (an MRN or a name is an identifier).
 */
@Injectable()
export class PatientSearchService {
  constructor(
    private readonly access: AccessService,
    private readonly cohort: CohortRepository,
    private readonly phi: AuditedAccess,
  ) {}

  search(context: AccessContext, query: PatientSearchQueryDto): Promise<PatientSearchResultDto> {
    return this.phi.auditedList(context, async () => {
      const { careTeamIds, role } = this.access.patientSearch(context);
      const { search, searchedBy } = searchOf(query);
      const limit = query.limit ?? SEARCH_LIMIT_DEFAULT;
      const found = await this.cohort.searchPatients(careTeamIds, search, limit);
      const today = todayUtc();
      const projected = project('patient', role, found.rows.map((row) => patientHeader(row, today)));
      const fields = [`searchedBy:${searchedBy}`, ...Object.keys(projected.rows[0] ?? {}).sort()];
      return {
        value: { searchedBy, patients: projected.rows, truncated: found.truncated, limit },
        patientIds: found.rows.map((row) => row.id),
        fields,
      };
    });
  }

  /**
   * Every patient of the caller's care teams, by name, at most `limit` (a patient picker's list):
   * each projected for the caller's role (never a model's) and audited as a search's are. `ids` are
   * the patients' ids in the same order, for the picker to bind the one the person chooses.
   */
  teamPatients(context: AccessContext, limit: number): Promise<{ patients: Record<string, unknown>[]; ids: string[]; truncated: boolean }> {
    return this.phi.auditedList(context, async () => {
      const { careTeamIds, role } = this.access.patientSearch(context);
      const found = await this.cohort.teamPatients(careTeamIds, limit);
      const today = todayUtc();
      const projected = project('patient', role, found.rows.map((row) => patientHeader(row, today)));
      const ids = found.rows.map((row) => row.id);
      return { value: { patients: projected.rows, ids, truncated: found.truncated }, patientIds: ids, fields: ['listedBy:care_team', ...Object.keys(projected.rows[0] ?? {}).sort()] };
    });
  }
}
