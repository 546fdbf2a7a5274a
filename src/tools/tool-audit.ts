import { ToolEnvelope } from './envelope';

/** The field names met at one depth of an envelope (`patient.`, a row, `notes.` of a row), each built once. */
interface Level {
  prefix: string;
  children: Map<string, Level>;
}

/**
 * Names of the fields that left in an envelope (never values): `patient.age`, `value`, `notes.text`.
 * Rows of one shape share their keys, so each name is built the first time its key is met at its
 * depth, not once per row (an encounters answer is a hundred rows with their notes).
 */
export function returnedFields(envelope: ToolEnvelope): string[] {
  const fields: string[] = [];
  const collect = (value: unknown, level: Level) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return;
    for (const key of Object.keys(value)) {
      let child = level.children.get(key);
      if (!child) {
        child = { prefix: `${level.prefix}${key}.`, children: new Map() };
        level.children.set(key, child);
        fields.push(`${level.prefix}${key}`);
      }
      const item = (value as Record<string, unknown>)[key];
      if (Array.isArray(item)) for (const element of item) collect(element, child);
    }
  };
  collect(envelope.patient, { prefix: 'patient.', children: new Map() });
  const rows: Level = { prefix: '', children: new Map() };
  for (const row of envelope.rows) collect(row, rows);
  collect(envelope.summary, { prefix: 'summary.', children: new Map() });
  return [...new Set(fields)].sort();
}
