import { CohortSchema1764450000000 } from './1764450000000-cohort-schema';
import { AuditTrail1764460000000 } from './1764460000000-audit-trail';
import { CohortReaderRole1764470000000 } from './1764470000000-cohort-reader-role';
import { Approvals1764480000000 } from './1764480000000-approvals';
import { ProposalsUpdatedIndex1764490000000 } from './1764490000000-proposals-updated-index';
import { AgentTurns1764500000000 } from './1764500000000-agent-turns';
import { AgentTurnsClinicianIndex1764510000000 } from './1764510000000-agent-turns-clinician-index';
import { EcqmDataContract1764520000000 } from './1764520000000-ecqm-data-contract';
import { MeasureRetrieveFidelity1764525000000 } from './1764525000000-measure-retrieve-fidelity';
import { ApprovalWithdrawal1764526000000 } from './1764526000000-approval-withdrawal';
import { AuditChannelBreakGlass1764530000000 } from './1764530000000-audit-channel-break-glass';
import { PatientSearch1764533000000 } from './1764533000000-patient-search';
import { ProposalDrafts1764540000000 } from './1764540000000-proposal-drafts';
import { MeasureResultsStore1764545000000 } from './1764545000000-measure-results-store';
import { Worklists1764546000000 } from './1764546000000-worklists';
import { MeasureResultsPatientPeriodKey1764549000000 } from './1764549000000-measure-results-patient-period-key';
import { WorklistLastEvidenceIndex1764549500000 } from './1764549500000-worklist-last-evidence-index';
import { AuditSeals1764550000000 } from './1764550000000-audit-seals';
import { MeasureResultsAnalyze1764553000000 } from './1764553000000-measure-results-analyze';
import { WorklistAnyMeasureLastEvidenceIndex1764555000000 } from './1764555000000-worklist-any-measure-last-evidence-index';
import { MeasureResultsFillfactor1764556000000 } from './1764556000000-measure-results-fillfactor';
import { MeasureResultsContentHash1764557000000 } from './1764557000000-measure-results-content-hash';
import { MeasureRunsCompletePeriodIndex1764558000000 } from './1764558000000-measure-runs-complete-period-index';
import { AgentTurnStartFunction1764559000000 } from './1764559000000-agent-turn-start-function';
import { ObservationCategoryAsGiven1764561000000 } from './1764561000000-observation-category-as-given';
import { McpSessions1764562000000 } from './1764562000000-mcp-sessions';
import { InstallationIdentity1764565000000 } from './1764565000000-installation-identity';
import { PatientSearchNameKeys1764566500000 } from './1764566500000-patient-search-name-keys';
import { PopulationRecordKeys1764567300000 } from './1764567300000-population-record-keys';
import { PopulationPublications1764568000000 } from './1764568000000-population-publications';
import { AgentTurnReasons1764569000000 } from './1764569000000-agent-turn-reasons';
import { StaffIdentities1764570000000 } from './1764570000000-staff-identities';

/** Every migration, in order. Listed explicitly so the compiled app and the tests (transpiled by swc) load the same set. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const MIGRATIONS: Function[] = [CohortSchema1764450000000, AuditTrail1764460000000, CohortReaderRole1764470000000, Approvals1764480000000, ProposalsUpdatedIndex1764490000000, AgentTurns1764500000000, AgentTurnsClinicianIndex1764510000000, EcqmDataContract1764520000000, MeasureRetrieveFidelity1764525000000, ApprovalWithdrawal1764526000000, AuditChannelBreakGlass1764530000000, PatientSearch1764533000000, ProposalDrafts1764540000000, MeasureResultsStore1764545000000, Worklists1764546000000, MeasureResultsPatientPeriodKey1764549000000, WorklistLastEvidenceIndex1764549500000, AuditSeals1764550000000, MeasureResultsAnalyze1764553000000, WorklistAnyMeasureLastEvidenceIndex1764555000000, MeasureResultsFillfactor1764556000000, MeasureResultsContentHash1764557000000, MeasureRunsCompletePeriodIndex1764558000000, AgentTurnStartFunction1764559000000, ObservationCategoryAsGiven1764561000000, McpSessions1764562000000, InstallationIdentity1764565000000, PatientSearchNameKeys1764566500000, PopulationRecordKeys1764567300000, PopulationPublications1764568000000, AgentTurnReasons1764569000000, StaffIdentities1764570000000];
