// @ts-check
/**
 * The fields of a form and their rules, read from the OpenAPI document the service serves
 * (`/docs-json`): the same document its request validation is generated beside, so the page checks
 * what the API checks (required, allowed values, patterns, lengths, dates and the earliest day) without a
 * second copy of the rules. The API stays the judge: its problem response's per-field errors are
 * shown beside the same fields. Pure, so the unit tests import it as served.
 */

/**
 * @typedef {{
 *   name: string, path: string, label: string, required: boolean, options?: string[],
 *   minLength?: number, maxLength?: number, date?: boolean, earliest?: 'today-utc', multiline: boolean, hint?: string,
 *   pattern?: string, example?: string
 * }} FieldSpec
 * `path` is the field as the API names it in a problem (`content.dueDate`).
 */

/** Texts longer than this are edited in a text area. */
const MULTILINE_FROM = 200;

/** @param {any} openapi @param {string} ref */
const resolve = (openapi, ref) => openapi?.components?.schemas?.[String(ref).replace('#/components/schemas/', '')];

/**
 * The closed content schema of a proposal kind: the create body whose `kind` is exactly that kind
 * names it (`PROPOSAL_BODY_SCHEMA`'s variants). @param {any} openapi @param {string} kind
 */
export function contentSchemaOf(openapi, kind) {
  for (const schema of Object.values(openapi?.components?.schemas ?? {})) {
    const kinds = /** @type {any} */ (schema)?.properties?.kind?.enum;
    const content = /** @type {any} */ (schema)?.properties?.content;
    if (Array.isArray(kinds) && kinds.length === 1 && kinds[0] === kind && content?.$ref) return resolve(openapi, content.$ref);
  }
  return undefined;
}

/**
 * One field spec per property of `schema`, in its order. @param {any} schema @param {string} prefix
 * @param {(name: string) => string} labelOf @returns {FieldSpec[]}
 */
export function fieldsOfSchema(schema, prefix, labelOf) {
  const required = new Set(schema?.required ?? []);
  return Object.entries(schema?.properties ?? {}).map(([name, property]) => {
    const p = /** @type {any} */ (property);
    return {
      name,
      path: prefix ? `${prefix}.${name}` : name,
      label: labelOf(name),
      required: required.has(name),
      ...(Array.isArray(p.enum) ? { options: p.enum.map(String) } : {}),
      ...(typeof p.minLength === 'number' ? { minLength: p.minLength } : {}),
      ...(typeof p.maxLength === 'number' ? { maxLength: p.maxLength } : {}),
      ...(p.format === 'date' ? { date: true } : {}),
      ...(typeof p.pattern === 'string' ? { pattern: p.pattern } : {}),
      ...(typeof p.example === 'string' ? { example: p.example } : {}),
      ...(p['x-earliest'] === 'today-utc' ? { earliest: /** @type {const} */ ('today-utc') } : {}),
      multiline: p.format !== 'date' && !p.enum && (p.maxLength ?? 0) > MULTILINE_FROM,
      ...(typeof p.description === 'string' ? { hint: p.description } : {}),
    };
  });
}

/** The UTC day of `now` as `YYYY-MM-DD`: the service's "today" for due dates. @param {Date} [now] */
export const todayUtc = (now = new Date()) => now.toISOString().slice(0, 10);

/** `YYYY-MM-DD` naming a day the calendar has. @param {string} value */
const isCalendarDate = (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

/** What a field's rules say of a value, in words, or null when it passes. @param {FieldSpec} field @param {string} value @param {Date} [now] */
export function checkField(field, value, now = new Date()) {
  if (value === '') return field.required ? `${field.label} is required.` : null;
  if (field.options && !field.options.includes(value)) return `${field.label} must be one of: ${field.options.join(', ')}.`;
  if (field.date && !isCalendarDate(value)) return `${field.label} must be a date (YYYY-MM-DD).`;
  if (field.pattern !== undefined && !field.date && !new RegExp(field.pattern).test(value)) return `${field.label} must be ${patternText(field)}.`;
  if (field.earliest === 'today-utc' && value < todayUtc(now)) return `${field.label} must be today (${todayUtc(now)}, UTC) or later: a due date in the past is refused.`;
  // Counted as the API counts them: UTF-16 code units.
  if (field.minLength !== undefined && value.length < field.minLength) return `${field.label} needs at least ${field.minLength} character${field.minLength === 1 ? '' : 's'}.`;
  if (field.maxLength !== undefined && value.length > field.maxLength) return `${field.label} may have at most ${field.maxLength} characters (it has ${value.length}).`;
  return null;
}

/**
 * Every field's problem, by path, for `values` (trimmed text by field path).
 * @param {FieldSpec[]} fields @param {Record<string, string>} values @param {Date} [now]
 * @returns {Array<{ path: string, message: string }>}
 */
export function checkFields(fields, values, now = new Date()) {
  return fields.flatMap((field) => {
    const message = checkField(field, values[field.path] ?? '', now);
    return message ? [{ path: field.path, message }] : [];
  });
}

/** The content object to send: every filled field under its name; an empty optional one left out. @param {FieldSpec[]} fields @param {Record<string, string>} values */
export function contentOf(fields, values) {
  return Object.fromEntries(fields.filter((field) => (values[field.path] ?? '') !== '').map((field) => [field.name, values[field.path]]));
}

/** How a field's rules read beside it (its label says whether it is required): `3–500 characters`. @param {FieldSpec} field */
export function ruleText(field) {
  const length =
    field.minLength !== undefined && field.maxLength !== undefined
      ? `${field.minLength}–${field.maxLength} characters`
      : field.maxLength !== undefined && !field.date
        ? `at most ${field.maxLength} characters`
        : null;
  const choices = field.options ? `one of: ${field.options.join(', ')}` : field.pattern !== undefined && !field.date ? patternText(field) : null;
  return [choices, field.earliest === 'today-utc' ? 'today (UTC) or later' : null, length].filter(Boolean).join(' · ');
}

/** A pattern in words: by the schema's example where it gives one. @param {FieldSpec} field */
const patternText = (field) => (field.example ? `in the form of ${field.example}` : 'in the form the API documents');
