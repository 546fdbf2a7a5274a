import type { ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { patients, staff } from './cohort';

/** Reading Vigil's patient form (MCP elicitation) as a client does, and the fixture patients it must list. */

export type Form = ElicitRequest['params'];

export type Option = { value: string; title: string };

/** The choices of a patient form, as a client reads them (`oneOf` titles, or `enum` with `enumNames`). */
export function optionsOf(form: Form): Option[] {
  const field = (form as { requestedSchema: { properties: Record<string, Record<string, unknown>> } }).requestedSchema.properties.patient;
  if (Array.isArray(field.oneOf)) return (field.oneOf as { const: string; title: string }[]).map((option) => ({ value: option.const, title: option.title }));
  return (field.enum as string[]).map((value, index) => ({ value, title: (field.enumNames as string[])[index] }));
}

/** The value of the option naming the fixture patient `key` (by MRN: the person's second identifier). */
export function optionFor(options: Option[], key: string): string {
  const mrn = patients.find((patient) => patient.key === key)!.mrn;
  const option = options.find((candidate) => candidate.title.includes(`MRN ${mrn}`));
  if (!option) throw new Error(`no option for ${key}`);
  return option.value;
}

/** The fixture patients of a user's care teams: what their picker must list. */
export const teamPatientsOf = (username: string) => {
  const teams = staff.users.find((user) => user.username === username)!.careTeams;
  return patients.filter((patient) => patient.careTeams.some((team) => teams.includes(team)));
};

/** Polls `read` until it gives a value (10 s at most). */
export async function waitFor<T>(read: () => T | undefined): Promise<T> {
  for (let waited = 0; waited < 10_000; waited += 50) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('timed out waiting');
}
