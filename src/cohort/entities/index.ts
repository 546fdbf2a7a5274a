import { AdverseEvent } from './adverse-event.entity';
import { Allergy } from './allergy.entity';
import { CareTeamMember } from './care-team-member.entity';
import { CareTeam } from './care-team.entity';
import { ClinicalNote } from './clinical-note.entity';
import { ClinicalRequest } from './clinical-request.entity';
import { Communication } from './communication.entity';
import { Immunization } from './immunization.entity';
import { MedicationAdministration } from './medication-administration.entity';
import { Task } from './task.entity';
import { Condition } from './condition.entity';
import { Encounter } from './encounter.entity';
import { MedicationDispense } from './medication-dispense.entity';
import { Medication } from './medication.entity';
import { Observation } from './observation.entity';
import { PatientCareTeam } from './patient-care-team.entity';
import { Patient } from './patient.entity';
import { Procedure } from './procedure.entity';
import { StaffUser } from './staff-user.entity';

export {
  AdverseEvent,
  Allergy,
  CareTeam,
  CareTeamMember,
  ClinicalNote,
  ClinicalRequest,
  Communication,
  Condition,
  Encounter,
  Immunization,
  Medication,
  MedicationAdministration,
  MedicationDispense,
  Observation,
  Patient,
  PatientCareTeam,
  Procedure,
  StaffUser,
  Task,
};

/** Every entity of the cohort schema, in the order the fixture loader writes them. */
export const COHORT_ENTITIES = [
  CareTeam,
  StaffUser,
  CareTeamMember,
  Patient,
  PatientCareTeam,
  Encounter,
  Observation,
  Condition,
  Medication,
  MedicationDispense,
  Procedure,
  ClinicalNote,
  Allergy,
  ClinicalRequest,
  AdverseEvent,
  Immunization,
  Communication,
  MedicationAdministration,
  Task,
];
