import request from 'supertest';
import { StaffRole } from '../../src/common/roles';
import { useAgentApp } from '../setup/agent-app';
import { patientIdOf, userFor } from '../setup/cohort';
import { finalAnswer, toolResultsIn } from '../setup/fake-model';
import { TEST_ANCHOR_DATE } from '../setup/test-database';

const PATIENT = 'readmission-high-utilizer';
type Row = Record<string, unknown>;

/** The agent states the predicted readmission risk, written by the server from the prediction the tool returned. */
describe('agent turns: the predicted 30-day readmission risk', () => {
  const { model, app } = useAgentApp();

  it('states the risk in percent for the index stay’s days, cites the prediction, and drops a fact that cites the wrong kind of row', async () => {
    let prediction: Row = {};
    let charlson: Row = {};
    model.script([
      { toolCalls: [{ name: 'feature_attribution', arguments: JSON.stringify({ asOf: TEST_ANCHOR_DATE }) }] },
      (req) => {
        const [result] = toolResultsIn(req);
        prediction = result.summary as Row;
        charlson = (result.rows as Row[]).find((row) => row.feature === 'charlson_index')!;
        return finalAnswer('answered', [
          { kind: 'readmission_risk', citations: [prediction.citation as string] },
          { kind: 'risk_driver', citations: [charlson.citation as string] },
          { kind: 'readmission_risk', citations: [charlson.citation as string] },
          { kind: 'risk_driver', citations: [prediction.citation as string] },
        ]);
      },
    ]);
    const token = await app().tokenFor(userFor(StaffRole.Clinician, PATIENT).username);
    const res = await request(app().app.getHttpServer())
      .post(`/patients/${patientIdOf(PATIENT)}/agent/turns`)
      .set('authorization', `Bearer ${token}`)
      .send({ question: 'What is the predicted readmission risk, and what drives it?' })
      .expect(200);

    // What the model read: a labelled, rounded result with the index stay's days, no developer numbers.
    expect(prediction).toMatchObject({ citation: `prediction:readmission-30d@${TEST_ANCHOR_DATE}`, riskPercent: 61.3, admittedOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(charlson).toMatchObject({ label: 'Charlson comorbidity index', value: 6, phi: 0.756 });
    expect(JSON.stringify(toolResultsIn(model.requests[1]))).not.toMatch(/\d\.\d{6,}/);

    expect(res.body.status).toBe('answered');
    expect(res.body.statements).toEqual([
      {
        kind: 'readmission_risk',
        citations: [prediction.citation],
        fields: ['admittedOn', 'dischargedOn', 'riskPercent'],
        text: `Predicted risk of readmission within thirty days after the inpatient stay from ${prediction.admittedOn} to ${prediction.dischargedOn}: 61.3 percent (illustrative model, not validated for clinical use).`,
      },
      {
        kind: 'risk_driver',
        citations: [charlson.citation],
        fields: ['baseline', 'direction', 'label', 'phi', 'value'],
        text: 'Readmission risk (illustrative model), Charlson comorbidity index: value 6 against a cohort baseline of 1.8, contribution 0.756 log-odds (raises the risk).',
      },
    ]);
    expect(res.body.usage.droppedStatements).toEqual(['wrong_row', 'wrong_row']);
  });
});
