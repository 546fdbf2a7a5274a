import { CodeSystem, NoteType } from '../cohort/enum';
import { copyStatement, instant, TABLE_WRITERS, text } from './copy-format';
import { IdFactory } from './ids';
import { generatePatientRecord } from './patient-record';
import { PatientRecord } from './rows';

describe('COPY text format', () => {
  it('escapes backslash, tab, newline and carriage return, and writes null as \\N', () => {
    expect(text('a\\b\tc\nd\re')).toBe('a\\\\b\\tc\\nd\\re');
    expect(text('plain')).toBe('plain');
    expect(text(null)).toBe('\\N');
    expect(instant(Date.UTC(2026, 5, 30, 9))).toBe('2026-06-30T09:00:00.000Z');
  });

  it('writes one line per row with exactly one field per listed column', () => {
    const record = generatePatientRecord(
      { seed: 5, anchorMs: Date.UTC(2026, 5, 30), careTeamIds: ['6c7a6f3e-2f7b-5a41-9d0c-0a1b2c3d4e5f'], ids: new IdFactory(5) },
      3,
    );
    record.clinicalNotes.push({
      id: 'x',
      patientId: record.patient.id,
      createdAt: 0,
      encounterId: null,
      noteType: NoteType.ProgressNote,
      authorDisplay: null,
      authoredAt: 0,
      text: 'two\nlines\twith tab \\ and a backslash',
    });
    for (const writer of TABLE_WRITERS) {
      const { text: lines, rows } = writer.lines(record as PatientRecord);
      const split = lines.split('\n').filter(Boolean);
      expect(split).toHaveLength(rows);
      for (const line of split) expect(line.split('\t')).toHaveLength(writer.columns.length);
    }
  });

  it('names every column, so no default (created_at = now()) makes a rerun differ', () => {
    const observations = TABLE_WRITERS.find((writer) => writer.table === 'observations');
    expect(observations && copyStatement(observations)).toMatch(/^COPY "observations" \("id", "patient_id", "created_at", .*"effective_at", .*"data_absent_reason"\) FROM STDIN$/);
    expect(CodeSystem.Loinc).toBe('http://loinc.org');
  });
});
