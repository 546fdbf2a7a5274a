import type { AccessGate } from '../../src/cohort/cohort.repository';

/**
 * A gate for a test that calls a tool or a gated cohort read directly, without `AccessService`: the
 * statement reads the data whatever the care teams (as with break glass) and every probe is admitted.
 */
export function openGate(patientId: string): AccessGate {
  return { patientId, careTeamIds: [], breakGlass: true, admit: () => undefined };
}
