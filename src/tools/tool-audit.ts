import { ToolEnvelope } from './envelope';

/** Names of the fields that left in an envelope (never values): `patient.age`, `value`, `notes.text`. */
export function returnedFields(envelope: ToolEnvelope): string[] {
  const fields = new Set<string>();
  const collect = (value: unknown, prefix: string) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return;
    for (const [key, item] of Object.entries(value)) {
      fields.add(`${prefix}${key}`);
      if (Array.isArray(item)) item.forEach((element) => collect(element, `${prefix}${key}.`));
    }
  };
  collect(envelope.patient, 'patient.');
  envelope.rows.forEach((row) => collect(row, ''));
  collect(envelope.summary, 'summary.');
  return [...fields].sort();
}
