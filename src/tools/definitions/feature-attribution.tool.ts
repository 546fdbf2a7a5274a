import { Injectable } from '@nestjs/common';
import type { AccessGate, CohortRead } from '../../cohort/cohort.repository';
import { PatientChart } from '../../cohort/chart.types';
import { attributeReadmissionRisk, findIndexAdmission, REPORTED_SUM_TOLERANCE, reportAttribution } from '../../clinical/readmission';
import { AsOfQueryDto } from '../dto/as-of-query.dto';
import { ABSENCE_ASSUMPTION, todayUtc, ToolOutput } from '../envelope';
import { asOfWindow, loadChart, PARTIAL_ASSUMPTION } from './derived-tool';
import { Tool } from './tool';

@Injectable()
export class FeatureAttributionTool implements Tool<AsOfQueryDto> {
  readonly name = 'feature_attribution' as const;
  readonly summary =
    'Predicted 30-day readmission risk (percent) after the last inpatient stay before a date (its dates in the summary), from a documented illustrative logistic model, with each feature\'s labelled contribution in log-odds.';
  readonly queryDto = AsOfQueryDto;

  /** Only a patient with an index admission today (a finished inpatient stay, survived) has a risk to explain. */
  availableFor(chart: PatientChart): boolean {
    return findIndexAdmission(chart, todayUtc()) !== undefined;
  }

  async execute(read: CohortRead, gate: AccessGate, query: AsOfQueryDto) {
    const { chart, partial } = await loadChart(read, gate);
    const { asOf, window } = asOfWindow(query.asOf, (day) => `The index admission is the last finished inpatient stay, survived, ending on or before ${day}.`);
    const result = attributeReadmissionRisk(chart, asOf);
    const report = result ? reportAttribution(result, asOf) : null;
    const output: ToolOutput & { patient: typeof chart.patient } = {
      patient: chart.patient,
      rows: report?.rows ?? [],
      ...(report ? { summary: report.summary } : {}),
      window,
      truncated: false,
      partial,
      assumptions: [
        ABSENCE_ASSUMPTION,
        report
          ? `Contributions are exact Shapley values of a linear model in log-odds: baselineLogit + the sum of all phi equals logit. Log-odds are reported to 3 decimals and the risk as a percentage to 1, so the reported numbers add up to within ${REPORTED_SUM_TOLERANCE}.`
          : 'No finished inpatient stay before the as-of date: there is no index admission to score.',
        'Illustrative model, not validated for clinical use (see docs/readmission-model-card.md).',
        ...(partial ? [PARTIAL_ASSUMPTION] : []),
      ],
      ageOn: asOf,
    };
    return output;
  }
}
