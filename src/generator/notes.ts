import { NoteType } from '../cohort/enum';
import { ChartWriter } from './chart-writer';
import { PlannedEncounter } from './encounter-plan';
import { Random } from './random';
import { DAY_MS } from './time';

/**
 * Short template notes, marked synthetic in their text. They name the reason and the course, never
 * a number (numbers live in observations, where the tools can cite them) and never a person.
 */
export function addEncounterNote(
  writer: ChartWriter,
  random: Random,
  encounter: PlannedEncounter,
  encounterId: string,
  reasonText: string,
): void {
  const end = encounter.endMs ?? encounter.startMs;
  if (encounter.purpose === 'inpatient' || encounter.purpose === 'observation') {
    const days = Math.max(1, Math.round((end - encounter.startMs) / DAY_MS));
    const outcome =
      encounter.disposition === 'expired'
        ? 'The patient died during the stay; the family was present.'
        : `Discharged to ${encounter.disposition ?? 'home'}; primary-care follow-up within 7 days requested.`;
    note(writer, NoteType.DischargeSummary, 'Hospitalist service', end, encounterId,
      `[Synthetic] ${encounter.readmission ? 'Readmission' : 'Admission'} for ${reasonText}, ${days} day(s). ` +
        `Treated per protocol, symptoms improved. ${outcome}`);
    return;
  }
  const office = encounter.purpose === 'followup' || encounter.purpose === 'checkup' || encounter.purpose === 'acute';
  if (office && random.chance(0.2)) {
    note(writer, NoteType.ProgressNote, 'Primary care clinician', end, encounterId,
      `[Synthetic] Seen for ${reasonText}. History reviewed, examination unremarkable apart from the known problems. ` +
        random.pick([
          'Plan unchanged; continue current medicines.',
          'Lifestyle advice given; labs ordered as due.',
          'Adherence discussed; return in three months.',
          'Medication reconciliation done; no changes.',
        ]));
  } else if (encounter.purpose === 'virtual' && random.chance(0.15)) {
    note(writer, NoteType.PatientMessage, null, encounter.startMs - DAY_MS, null,
      '[Synthetic] Message from the patient asking for a repeat prescription before the video visit.');
  }
}

function note(writer: ChartWriter, type: NoteType, author: string | null, at: number, encounterId: string | null, text: string): void {
  writer.record.clinicalNotes.push({
    id: writer.nextId('note'),
    patientId: writer.patientId,
    createdAt: at,
    encounterId,
    noteType: type,
    authorDisplay: author,
    authoredAt: at,
    text,
  });
}
