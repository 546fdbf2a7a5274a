import type { ClientCapabilities, ElicitRequest, JSONRPCErrorResponse, JSONRPCResultResponse } from '@modelcontextprotocol/sdk/types.js';

/**
 * The patient picker of a session opened without a patient: the form a client shows its person
 * (MCP elicitation), and how the answer is read. Pure: what it lists, who may see it and the audit
 * are the picker service's.
 */

/** Most patients one form lists (by name); a longer list says it was cut, and how to reach the others. */
export const PICKER_MAX_PATIENTS = 100;

/** The JSON-RPC method of a form, and the only request Vigil ever sends a client. */
export const ELICITATION_METHOD = 'elicitation/create';

/** The protocol version from which a titled choice is `oneOf` (`const` + `title`); before it, `enum` + `enumNames`. */
const TITLED_ONE_OF_SINCE = '2025-11-25';

/**
 * Whether a client said at `initialize` that it shows forms to its person: `elicitation` present,
 * with `form` in it or (as 2025-06-18 clients say it) with neither mode named.
 */
export function elicitsForms(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation as Record<string, unknown> | undefined;
  if (typeof elicitation !== 'object' || elicitation === null) return false;
  return 'form' in elicitation || !('url' in elicitation);
}

/** One line naming a patient by what the person's projection let through: name, MRN, birth date, age and sex. */
export function patientLabel(header: Record<string, unknown>): string {
  const text = (key: string) => (typeof header[key] === 'string' && header[key] !== '' ? (header[key] as string) : undefined);
  const name = [text('familyName'), text('givenName')].filter(Boolean).join(', ');
  const parts = [name || 'Name withheld'];
  if (text('mrn')) parts.push(`MRN ${text('mrn')}`);
  if (text('birthDate')) parts.push(`born ${text('birthDate')}`);
  const about = [typeof header.age === 'number' ? String(header.age) : undefined, text('sex')].filter(Boolean).join(', ');
  if (about) parts.push(`(${about})`);
  return parts.join(' · ');
}

/**
 * The form: one required choice among `patients` (projected headers, in order), whose values are
 * positions ("1", "2", …), never ids, so the answer says nothing a log or a model could use.
 */
export function patientForm(patients: Record<string, unknown>[], truncated: boolean, protocolVersion: string): ElicitRequest['params'] {
  const values = patients.map((_patient, index) => String(index + 1));
  const titles = patients.map(patientLabel);
  const choice =
    protocolVersion >= TITLED_ONE_OF_SINCE
      ? { type: 'string' as const, title: 'Patient', oneOf: values.map((value, index) => ({ const: value, title: titles[index] })) }
      : { type: 'string' as const, title: 'Patient', enum: values, enumNames: titles };
  const message = [
    'Vigil: choose the patient this session is about. Every tool of the session reads that patient only; the assistant cannot choose or change it.',
    truncated
      ? `Your care teams' first ${patients.length} patients by name; for another, open a session for that patient (the bridge's --patient <id>, or the URL /mcp/patients/<id>).`
      : "Your care teams' patients, by name.",
  ].join(' ');
  // `mode` came with the version that added URL forms; older clients know only forms and no `mode`.
  const mode = protocolVersion >= TITLED_ONE_OF_SINCE ? { mode: 'form' as const } : {};
  return { ...mode, message, requestedSchema: { type: 'object', properties: { patient: choice }, required: ['patient'] } } as ElicitRequest['params'];
}

/** How a form was answered: a position among the offered patients, or why none was chosen. */
export type PickerAnswer = { index: number } | { ended: 'decline' | 'cancel' | 'invalid' | 'error' };

/** Reads a client's answer to a form of `offered` patients; anything but an accepted, listed position chooses no one. */
export function pickerAnswer(message: JSONRPCResultResponse | JSONRPCErrorResponse, offered: number): PickerAnswer {
  if (!('result' in message)) return { ended: 'error' };
  const { action, content } = message.result as { action?: unknown; content?: unknown };
  if (action === 'decline' || action === 'cancel') return { ended: action };
  if (action !== 'accept' || typeof content !== 'object' || content === null) return { ended: 'invalid' };
  const value = (content as Record<string, unknown>).patient;
  const position = typeof value === 'string' && /^[1-9][0-9]{0,5}$/.test(value) ? Number(value) : NaN;
  return position >= 1 && position <= offered ? { index: position - 1 } : { ended: 'invalid' };
}

/** What the person is told when a form chose no one (the request that asked fails with it; the session stays, without a patient). */
export function notChosenMessage(ended: string): string {
  const why: Record<string, string> = {
    decline: 'you declined the form',
    cancel: 'the form was dismissed',
    invalid: 'the answer named no patient of the form',
    error: 'the client could not show the form',
    timeout: 'the form was not answered in time',
    refused: 'the chosen patient is no longer one you may read',
    failed: 'Vigil could not record the choice',
  };
  return `No patient was chosen (${why[ended] ?? 'the form ended'}), so this session reads no one. List or call a tool again to choose, or open a session for one patient (the bridge's --patient <id>, or the URL /mcp/patients/<id>).`;
}
