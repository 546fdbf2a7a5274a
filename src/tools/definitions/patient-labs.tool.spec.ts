import { AccessGate, CohortRead } from '../../cohort/cohort.repository';
import { observation } from '../../../test/setup/clinical/chart-builder';
import { noLabsWording } from '../../../test/setup/clinical/fixture-readme';
import { LABORATORY_ONLY_ASSUMPTION, PatientLabsTool } from './patient-labs.tool';
import { openGate } from '../../../test/setup/open-gate';

describe(PatientLabsTool.name, () => {
  const gates = new Map<string, AccessGate>();
  const gate = (patientId: string) => gates.get(patientId) ?? gates.set(patientId, openGate(patientId)).get(patientId)!;
  const sutWith = (rows: ReturnType<typeof observation>[]) => {
    const calls: unknown[][] = [];
    const read = { laboratoryResults: async (...args: unknown[]) => (calls.push(args), { patient: { id: 'p' }, rows, truncated: false }) } as unknown as CohortRead;
    const tool = new PatientLabsTool();
    return { sut: { summary: tool.summary, execute: (patientId: string, query: object) => tool.execute(read, gate(patientId), query) }, calls };
  };
  const saysNone = (assumptions: string[]) => assumptions.filter((text) => text.toLowerCase().includes(noLabsWording().toLowerCase()));

  it.each([
    [{}, 'in the whole record'],
    [{ from: '2026-01-01' }, 'from 2026-01-01 to the latest record'],
    [{ code: ['4548-4'], to: '2026-06-30' }, 'with LOINC 4548-4 from the beginning of the record to 2026-06-30'],
  ])('with no result for %j, says in the README\'s words that no laboratory results were recorded (%s), never that they were normal', async (query, scope) => {
    const { sut } = sutWith([]);
    const output = await sut.execute('p', query);
    expect(saysNone(output.assumptions)).toEqual([`No laboratory results were recorded ${scope}. This is not a normal result: no test result is on record here.`]);
    expect(output.assumptions).toContain(LABORATORY_ONLY_ASSUMPTION);
  });

  it('with results, says nothing of their absence, and states that only laboratory results are listed', async () => {
    const { sut, calls } = sutWith([observation('4548-4', 6.1, '2026-05-01')]);
    const output = await sut.execute('p', { code: ['4548-4'] });
    expect(saysNone(output.assumptions)).toEqual([]);
    expect(output.assumptions).toContain(LABORATORY_ONLY_ASSUMPTION);
    expect(output.window.semantics).toBe('No window given: the whole record of laboratory results with LOINC 4548-4 (by effective date).');
    expect(calls).toEqual([[gate('p'), { from: null, to: null }, ['4548-4'], 200]]);
  });

  it('describes itself to models and MCP clients as laboratory results, not vital signs', () => {
    expect(sutWith([]).sut.summary).toMatch(/^Laboratory results \(not vital signs\)/);
  });
});
