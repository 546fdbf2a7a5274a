import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CohortRead, CohortRepository } from '../cohort/cohort.repository';
import { ACCESS_STATEMENTS as SQL } from './access.sql';

/** The SQL of the access checks: every query behind a yes or no of `AccessService`. */
@Injectable()
export class AccessRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cohort: CohortRepository,
  ) {}

  /** Whether the patient exists and is on one of the teams: one query, both probes always run; in `read` when given, else in a read of its own. */
  patient(patientId: string, careTeamIds: string[], read?: CohortRead): Promise<{ exists: boolean; onCareTeam: boolean }> {
    return (read ?? this.cohort).patientAccess(patientId, careTeamIds);
  }

  proposalsOnTeams(proposalIds: string[], careTeamIds: string[], userId: string): Promise<{ id: string; patientId: string; proposerId: string; status: string }[]> {
    return this.dataSource.query(SQL.proposalsOnTeams, [proposalIds, careTeamIds, userId]);
  }

  /** Read like a patient probe (as `vigil_reader`, in the request's read when there is one). */
  async patientsOfActiveUser(userId: string, roles: readonly string[], patientIds: string[]): Promise<Set<string>> {
    const rows = await this.dataSource.query<{ patientId: string }[]>(SQL.patientsOfActiveUser, [userId, roles, patientIds]);
    return new Set(rows.map((row) => row.patientId));
  }
}
