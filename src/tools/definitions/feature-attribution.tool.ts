import { Injectable } from '@nestjs/common';
import { CohortRepository } from '../../cohort/cohort.repository';
import { PatientChart } from '../../cohort/chart.types';
import { attributeReadmissionRisk, findIndexAdmission } from '../../clinical/readmission';
import { AsOfQueryDto } from '../dto/as-of-query.dto';
import { ABSENCE_ASSUMPTION, todayUtc, ToolOutput } from '../envelope';
import { riskDriverCitation } from '../../clinical/derived-citations';
import { asOfWindow, loadChart, PARTIAL_ASSUMPTION } from './derived-tool';
import { Tool } from './tool';

@Injectable()
export class FeatureAttributionTool implements Tool<AsOfQueryDto> {
  readonly name = 'feature_attribution' as const;
  readonly summary =
    '30-day readmission risk of the last inpatient stay before a date, from a documented illustrative logistic model, with exact per-feature contributions (log-odds).';
  readonly queryDto = AsOfQueryDto;

  constructor(private readonly cohort: CohortRepository) {}

  /** Only a patient with an index admission today (a finished inpatient stay, survived) has a risk to explain. */
  availableFor(chart: PatientChart): boolean {
    return findIndexAdmission(chart, todayUtc()) !== undefined;
  }

  async execute(patientId: string, query: AsOfQueryDto) {
    const { chart, partial } = await loadChart(this.cohort, patientId);
    const { asOf, window } = asOfWindow(query.asOf, (day) => `The index admission is the last finished inpatient stay, survived, ending on or before ${day}.`);
    const result = attributeReadmissionRisk(chart, asOf);
    const output: ToolOutput & { patient: typeof chart.patient } = {
      patient: chart.patient,
      rows: (result?.contributions ?? []).map((contribution) => ({
        citation: riskDriverCitation(contribution.feature, asOf),
        feature: contribution.feature,
        value: contribution.value,
        baseline: contribution.baseline,
        weight: contribution.weight,
        phi: contribution.phi,
        direction: contribution.direction,
        // True when the patient had no value and the cohort baseline stood in (phi is then 0).
        imputed: contribution.imputed,
        evidence: contribution.evidence,
      })),
      ...(result
        ? {
            summary: {
              modelId: result.modelId,
              modelVersion: result.modelVersion,
              indexAdmission: result.indexAdmission,
              probability: result.probability,
              logit: result.logit,
              baselineLogit: result.baselineLogit,
              disclaimer: result.disclaimer,
            },
          }
        : {}),
      window,
      truncated: false,
      partial,
      assumptions: [
        ABSENCE_ASSUMPTION,
        result
          ? 'Contributions are exact Shapley values of a linear model in log-odds: baselineLogit + the sum of all phi equals logit.'
          : 'No finished inpatient stay before the as-of date: there is no index admission to score.',
        'Illustrative model, not validated for clinical use (see docs/readmission-model-card.md).',
        ...(partial ? [PARTIAL_ASSUMPTION] : []),
      ],
      ageOn: asOf,
    };
    return output;
  }
}
