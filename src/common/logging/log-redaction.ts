/**
 * Log redaction by field name: the last line of defence that keeps PHI out of log lines. Any key
 * whose normalised name (lower case, no `_`/`-`) is listed here has its value replaced, at any
 * depth, whatever its type. Errors are reduced to their type, SQLSTATE and stack frames: driver
 * messages quote values ("Key (mrn)=(…) already exists") and SQL, so a message never reaches a log.
 */
const PHI_FIELD_NAMES = new Set([
  'name',
  'names',
  'givenname',
  'familyname',
  'firstname',
  'lastname',
  'middlename',
  'fullname',
  'patientname',
  'mrn',
  'medicalrecordnumber',
  'birthdate',
  'dateofbirth',
  'dob',
  'deceasedat',
  'deceaseddate',
  'phone',
  'telephone',
  'mobile',
  'email',
  'address',
  'addressline',
  'street',
  'city',
  'postalcode',
  'zip',
  'zipcode',
  'ssn',
  'text',
  'notetext',
  'note',
  'notes',
  'body',
  'valuetext',
  'authorization',
  'cookie',
  'password',
  'parameters',
  'query',
]);

export const REDACTED = '[REDACTED]';
const MAX_DEPTH = 8;

export function isPhiFieldName(key: string): boolean {
  return PHI_FIELD_NAMES.has(key.toLowerCase().replace(/[_-]/g, ''));
}

export interface SafeError {
  type: string;
  /** SQLSTATE or Node error code, when the error carries one. */
  code?: string;
  /** Stack frames only: the first line of a stack repeats the message. */
  stack?: string;
}

export function toSafeError(error: Error): SafeError {
  const code = (error as { code?: unknown }).code;
  const frames = (error.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');
  return {
    type: error.constructor?.name ?? error.name,
    ...(typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? { code } : {}),
    ...(frames ? { stack: frames } : {}),
  };
}

/**
 * Returns a copy of `value` with PHI-named fields replaced and errors reduced to `SafeError`.
 * Only plain objects and arrays are walked; any other object (a request, a socket, an entity)
 * becomes its class name, because its fields are unknown here and it has no business in a log.
 */
export function redactPhi(value: unknown, depth = 0): unknown {
  if (value instanceof Error) return toSafeError(value);
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return value;
  if (depth >= MAX_DEPTH) return '[TRUNCATED]';
  if (Array.isArray(value)) return value.map((item) => redactPhi(item, depth + 1));
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return `[${value.constructor?.name ?? 'Object'}]`;

  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = isPhiFieldName(key) ? REDACTED : redactPhi(item, depth + 1);
  }
  return copy;
}
