import fc from 'fast-check';
import { ToolEnvelope } from './envelope';
import { returnedFields } from './tool-audit';

/** Every field name of the envelope read plainly, per row and per list item. */
function plainReading(envelope: ToolEnvelope): string[] {
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

describe(returnedFields.name, () => {
  const key = fc.constantFrom('id', 'value', 'notes', 'text', 'author', 'a.b', 'a', 'b');
  const leaf = fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.constant(null));
  const item = fc.dictionary(key, leaf, { maxKeys: 4 });
  const row = fc.dictionary(key, fc.oneof(leaf, fc.array(fc.oneof(item, leaf), { maxLength: 3 })), { maxKeys: 6 });

  it('names every field of every row, list item, header and summary once, sorted', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 5 }), item, fc.option(item, { nil: undefined }), (rows, patient, summary) => {
        const envelope = { patient, rows, ...(summary ? { summary } : {}) } as unknown as ToolEnvelope;
        expect(returnedFields(envelope)).toEqual(plainReading(envelope));
      }),
    );
  });

  it('names the fields of rows that differ in their keys', () => {
    const envelope = { patient: { age: 70 }, rows: [{ id: 1 }, { id: 2, notes: [{ text: 't' }, { author: 'a' }] }] } as unknown as ToolEnvelope;
    expect(returnedFields(envelope)).toEqual(['id', 'notes', 'notes.author', 'notes.text', 'patient.age']);
  });
});
