import fc from 'fast-check';
import { ROW_CITATION } from '../derived-citations';
import { buildFixtureCharts, FIXTURE_ANCHOR } from '../../../test/setup/fixture-charts';
import { attributeReadmissionRisk, READMISSION_FEATURES, READMISSION_MODEL } from '.';
import { REPORTED_SUM_TOLERANCE, reportAttribution, reportedLogOdds, reportedPercent } from './attribution-report';

const charts = buildFixtureCharts();
const decimals = (value: number) => (String(value).split('.')[1] ?? '').length;

describe(reportAttribution.name, () => {
  const chart = charts.get('readmission-high-utilizer')!;
  const result = attributeReadmissionRisk(chart, FIXTURE_ANCHOR)!;
  const sut = reportAttribution(result, FIXTURE_ANCHOR);

  it('labels every feature for a person, once', () => {
    expect(READMISSION_MODEL.features.map((spec) => spec.feature).sort()).toEqual([...READMISSION_FEATURES].sort());
    expect(Object.fromEntries(sut.rows.map((row) => [row.feature, row.label]))).toMatchObject({
      charlson_index: 'Charlson comorbidity index',
      ed_visits_6m: 'Emergency department visits in the 6 months before admission',
      egfr: 'Last eGFR before discharge (mL/min/1.73 m²)',
    });
    expect(new Set(sut.rows.map((row) => row.label)).size).toBe(READMISSION_FEATURES.length);
  });

  it('reports the risk as a percentage and the index stay by its days, citable as the prediction', () => {
    const index = chart.encounters.find((row) => `enc:${row.id}` === result.indexAdmission)!;
    expect(sut.summary).toEqual({
      citation: `prediction:readmission-30d@${FIXTURE_ANCHOR}`,
      modelId: 'vigil-readmission-30d-lace-style',
      modelVersion: '1.0.0',
      indexAdmission: result.indexAdmission,
      admittedOn: index.startAt.slice(0, 10),
      dischargedOn: index.endAt!.slice(0, 10),
      riskPercent: Number((result.probability * 100).toFixed(1)),
      logit: Number(result.logit.toFixed(3)),
      baselineLogit: Number(result.baselineLogit.toFixed(3)),
      disclaimer: 'Illustrative model, not validated for clinical use.',
    });
    expect(sut.summary.riskPercent).toBe(61.3);
    expect(ROW_CITATION.test(sut.summary.citation)).toBe(true);
  });

  it('rounds every contribution to at most three decimals, keeps sign and order, and the numbers still add up within the stated tolerance', () => {
    for (const [row, exact] of sut.rows.map((row, i) => [row, result.contributions[i]] as const)) {
      expect({ feature: row.feature, decimals: decimals(row.phi) <= 3, sign: Math.sign(row.phi), value: row.value }).toEqual({
        feature: exact.feature, decimals: true, sign: Math.sign(exact.phi), value: exact.value,
      });
    }
    const magnitudes = sut.rows.map((row) => Math.abs(row.phi));
    expect(magnitudes).toEqual([...magnitudes].sort((a, b) => b - a));
    const sum = sut.rows.reduce((total, row) => total + row.phi, 0);
    expect(Math.abs(sut.summary.baselineLogit + sum - sut.summary.logit)).toBeLessThanOrEqual(REPORTED_SUM_TOLERANCE);
    expect(REPORTED_SUM_TOLERANCE).toBe(0.005);
  });
});

describe(reportedLogOdds.name, () => {
  it.each([
    [0.22499999999999998, 0.225],
    [-0.3600000000000001, -0.36],
    [0.0004, 0.0004],
    [-0.00012345, -0.0001],
    [0, 0],
  ])('%p → %p', (value, reported) => expect(reportedLogOdds(value)).toBe(reported));

  it('never changes a sign, never turns a contribution into 0, and never swaps two values (property)', () => {
    const logOdds = fc.double({ min: -20, max: 20, noNaN: true });
    fc.assert(
      fc.property(logOdds, logOdds, (a, b) => {
        const [x, y] = [reportedLogOdds(a), reportedLogOdds(b)];
        expect(Math.sign(x)).toBe(Math.sign(a) || 0);
        if (a <= b) expect(x).toBeLessThanOrEqual(y);
        expect(decimals(Math.abs(x) >= 0.001 ? x : 0)).toBeLessThanOrEqual(3);
      }),
      { numRuns: 2000 },
    );
  });
});

describe(reportedPercent.name, () => {
  it.each([
    [0.6134885243570565, 61.3],
    [0.12, 12],
    [0.0004, 0.04],
    [0.99996, 99.996],
  ])('%p → %p %', (probability, percent) => expect(reportedPercent(probability)).toBe(percent));

  it('never reads as 0 % or 100 % for a probability strictly between (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-9, max: 1 - 1e-9, noNaN: true }), (probability) => {
        const percent = reportedPercent(probability);
        expect(percent).toBeGreaterThan(0);
        expect(percent).toBeLessThan(100);
        expect(Math.abs(percent - probability * 100)).toBeLessThanOrEqual(0.05 + 1e-9);
      }),
    );
  });
});
