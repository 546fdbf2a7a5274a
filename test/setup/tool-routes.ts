import { ToolName } from '../../src/tools/tool-names';

/** The REST path segment of each tool under `/patients/:patientId/`. */
export const TOOL_PATHS: Record<ToolName, string> = {
  patient_encounters: 'encounters',
  patient_labs: 'labs',
  care_gap_lookup: 'care-gaps',
  missing_data_check: 'missing-data',
  feature_attribution: 'readmission-risk',
};
