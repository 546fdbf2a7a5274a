import { Injectable } from '@nestjs/common';
import { CohortRepository } from '../../cohort/cohort.repository';
import { evaluateCareGaps } from '../clinical/care-gaps';
import { CareGapsQueryDto } from '../dto/care-gaps-query.dto';
import { ABSENCE_ASSUMPTION, MEDICATION_ASSUMPTION } from '../envelope';
import { asOfWindow, loadChart, PARTIAL_ASSUMPTION } from './derived-tool';
import { Tool } from './tool';

@Injectable()
export class CareGapLookupTool implements Tool<CareGapsQueryDto> {
  readonly name = 'care_gap_lookup' as const;
  readonly summary = 'Quality measures evaluated as of a date: open, closed or not applicable, with the reason, the evidence rows and what would close the gap.';
  readonly queryDto = CareGapsQueryDto;

  constructor(private readonly cohort: CohortRepository) {}

  async execute(patientId: string, query: CareGapsQueryDto) {
    const { chart, partial } = await loadChart(this.cohort, patientId);
    const { asOf, window } = asOfWindow(query.asOf, (day) => `Measures evaluated as of ${day}; each measurement period is the 12 months ending that day.`);
    const results = evaluateCareGaps(chart, asOf, query.measure);
    return {
      patient: chart.patient,
      rows: results.map((result) => ({
        measureId: result.measureId,
        version: result.version,
        title: result.title,
        periodStart: result.period.start,
        periodEnd: result.period.end,
        status: result.status,
        reasonCode: result.reason.code,
        reason: result.reason.text,
        evidence: result.evidence,
        toClose: result.toClose,
      })),
      window,
      truncated: false,
      partial,
      assumptions: [
        ABSENCE_ASSUMPTION,
        MEDICATION_ASSUMPTION,
        'Measure logic is a simplified reading of each eCQM (versions and simplifications are documented per measure); it is decision support, not a quality report.',
        ...(partial ? [PARTIAL_ASSUMPTION] : []),
      ],
      ageOn: asOf,
    };
  }
}
