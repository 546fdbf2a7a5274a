import { Injectable } from '@nestjs/common';
import { citationId, ObservationRow, PatientRow } from '../../cohort/chart.types';
import type { AccessGate, CohortRead } from '../../cohort/cohort.repository';
import { foundPatient } from './derived-tool';
import { LabsQueryDto } from '../dto/labs-query.dto';
import { ABSENCE_ASSUMPTION, describeWindow, todayUtc, toInstantWindow, ToolOutput } from '../envelope';
import { Tool } from './tool';

export const LAB_ROW_CAP = 200;

/**
 * What the tool lists, said on every answer. An observation the source gave no category (FHIR R4
 * allows it) is left out: calling it a laboratory result would be a guess, and a vital sign or a
 * questionnaire answer presented as a lab is a false statement about the record.
 */
export const LABORATORY_ONLY_ASSUMPTION =
  'Only laboratory results are listed (observations the source categorised as laboratory). Vital signs, smoking status, surveys and observations recorded without a category are not laboratory results and are not shown.';

/** The answer when nothing matched: absence of results, never a normal result. */
export function noLaboratoryResults(window: string): string {
  return `No laboratory results were recorded ${window}. This is not a normal result: no test result is on record here.`;
}

@Injectable()
export class PatientLabsTool implements Tool<LabsQueryDto> {
  readonly name = 'patient_labs' as const;
  readonly summary =
    'Laboratory results (not vital signs) in a date window, optionally by LOINC code, with units, reference ranges and interpretation.';
  readonly queryDto = LabsQueryDto;

  async execute(read: CohortRead, gate: AccessGate, query: LabsQueryDto): Promise<ToolOutput & { patient: PatientRow }> {
    const found = await read.laboratoryResults(gate, toInstantWindow(query.from, query.to), query.code ?? null, LAB_ROW_CAP);
    const what = query.code ? `laboratory results with LOINC ${query.code.join(', ')}` : 'laboratory results';
    const scope = [query.code ? `with LOINC ${query.code.join(', ')}` : null, windowPhrase(query.from, query.to)].filter(Boolean).join(' ');
    return {
      patient: foundPatient(found.patient),
      rows: found.rows.map(observationRow),
      window: describeWindow(query.from, query.to, `${what} (by effective date)`),
      truncated: found.truncated,
      ...(found.truncated
        ? { truncation: { limit: LAB_ROW_CAP, hint: `Only the ${LAB_ROW_CAP} most recent are shown; narrow the window with from/to or give LOINC codes.` } }
        : {}),
      assumptions: [
        ABSENCE_ASSUMPTION,
        ...(found.rows.length === 0 ? [noLaboratoryResults(scope)] : []),
        LABORATORY_ONLY_ASSUMPTION,
        'Units are reported exactly as recorded (UCUM); results with different units are not converted or merged.',
        'Rows with status entered-in-error or cancelled are shown as recorded and are not valid results.',
      ],
      ageOn: query.to ?? todayUtc(),
    };
  }
}

function windowPhrase(from?: string, to?: string): string {
  if (!from && !to) return 'in the whole record';
  return `from ${from ?? 'the beginning of the record'} to ${to ?? 'the latest record'}`;
}

export function observationRow(observation: ObservationRow): Record<string, unknown> {
  return {
    citation: citationId('obs', observation.id),
    encounterCitation: observation.encounterId ? citationId('enc', observation.encounterId) : null,
    category: observation.category,
    status: observation.status,
    codeSystem: observation.codeSystem,
    code: observation.code,
    display: observation.display,
    value: observation.valueNumeric,
    valueText: observation.valueText,
    unit: observation.unit,
    referenceLow: observation.referenceLow,
    referenceHigh: observation.referenceHigh,
    referenceText: observation.referenceText,
    interpretation: observation.interpretation,
    effectiveAt: observation.effectiveAt,
  };
}
