import { Injectable } from '@nestjs/common';
import { citationId, ObservationRow, PatientRow } from '../../cohort/chart.types';
import { CohortRepository } from '../../cohort/cohort.repository';
import { LabsQueryDto } from '../dto/labs-query.dto';
import { ABSENCE_ASSUMPTION, describeWindow, todayUtc, toInstantWindow, ToolOutput } from '../envelope';
import { Tool } from './tool';

export const LAB_ROW_CAP = 200;

@Injectable()
export class PatientLabsTool implements Tool<LabsQueryDto> {
  readonly name = 'patient_labs' as const;
  readonly summary = 'Observations (labs and vitals) in a date window, optionally by LOINC code, with units, reference ranges and interpretation.';
  readonly queryDto = LabsQueryDto;

  constructor(private readonly cohort: CohortRepository) {}

  async execute(patientId: string, query: LabsQueryDto): Promise<ToolOutput & { patient?: PatientRow }> {
    const found = await this.cohort.observations(patientId, toInstantWindow(query.from, query.to), query.code ?? null, LAB_ROW_CAP);
    const what = query.code ? `observations with LOINC ${query.code.join(', ')}` : 'observations';
    return {
      ...(found.patient ? { patient: found.patient } : {}),
      rows: found.rows.map(observationRow),
      window: describeWindow(query.from, query.to, `${what} (by effective date)`),
      truncated: found.truncated,
      ...(found.truncated
        ? { truncation: { limit: LAB_ROW_CAP, hint: `Only the ${LAB_ROW_CAP} most recent are shown; narrow the window with from/to or give LOINC codes.` } }
        : {}),
      assumptions: [
        ABSENCE_ASSUMPTION,
        'Units are reported exactly as recorded (UCUM); results with different units are not converted or merged.',
        'Rows with status entered-in-error or cancelled are shown as recorded and are not valid results.',
      ],
      ageOn: query.to ?? todayUtc(),
    };
  }
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
