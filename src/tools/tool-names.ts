/** The five read tools, by the names the API (operationId), the audit trail and the model use. */
export const TOOL_NAMES = ['patient_encounters', 'patient_labs', 'care_gap_lookup', 'missing_data_check', 'feature_attribution'] as const;
export type ToolName = (typeof TOOL_NAMES)[number];
