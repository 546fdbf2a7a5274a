import { Injectable } from '@nestjs/common';
import type { AccessGate, CohortRead } from '../../cohort/cohort.repository';
import { checkMissingData, describePresence, missingDataObservationCodes } from '../../clinical/missing-data';
import { AsOfQueryDto } from '../dto/as-of-query.dto';
import { ABSENCE_ASSUMPTION, MEDICATION_ASSUMPTION, ToolOutput } from '../envelope';
import { missingDataRow } from '../../clinical/derived-rows';
import { asOfWindow, foundChart, PARTIAL_ASSUMPTION } from './derived-tool';
import { Tool } from './tool';

@Injectable()
export class MissingDataCheckTool implements Tool<AsOfQueryDto> {
  readonly name = 'missing_data_check' as const;
  readonly summary = 'Expected data elements (USCDI-style) as present, missing or stale, with the last date seen.';
  readonly queryDto = AsOfQueryDto;

  async execute(read: CohortRead, gate: AccessGate, query: AsOfQueryDto) {
    // Only the rows the check can look at (`gatedMissingDataChart`): most of a chart is observations it never reads.
    const { chart, partial } = foundChart(await read.gatedMissingDataChart(gate, missingDataObservationCodes()));
    const { asOf, window } = asOfWindow(query.asOf, describePresence);
    const output: ToolOutput & { patient: typeof chart.patient } = {
      patient: chart.patient,
      rows: checkMissingData(chart, asOf).map((item) => missingDataRow(item, asOf)),
      window,
      truncated: false,
      partial,
      assumptions: [ABSENCE_ASSUMPTION, MEDICATION_ASSUMPTION, ...(partial ? [PARTIAL_ASSUMPTION] : [])],
      ageOn: asOf,
    };
    return output;
  }
}
