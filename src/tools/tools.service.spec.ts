import { PatientRow } from '../cohort/chart.types';
import { CohortRepository } from '../cohort/cohort.repository';
import { Sex } from '../cohort/enum';
import { StaffRole } from '../common/roles';
import { IdentifierFinderMemo } from '../phi/identifier-scrub';
import { PseudonymService } from '../phi/pseudonyms';
import { Tool } from './definitions/tool';
import { DerivedRowsService } from './derived-rows.service';
import { ToolsService } from './tools.service';
import { PatientReadGate } from '../access/access.service';

const patient: PatientRow = {
  id: '6b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d11', mrn: 'VGL-000120', givenName: 'Maribel', familyName: 'Thornquist', birthDate: '1961-04-09',
  sex: Sex.Female, sexCode: null, race: [], ethnicity: [], phone: '555-0119', email: null, addressLine: null, city: null, state: null,
  postalCode: null, deceasedAt: null,
};

const encounters: Tool = {
  name: 'patient_encounters',
  summary: 'encounters',
  queryDto: Object,
  execute: async (_read, gate) => ({
    ...(gate.admit({ exists: true, onCareTeam: true }), {}),
    rows: [{ citation: 'enc:1', notes: [{ text: 'Maribel Thornquist seen (VGL-000120)', citation: `pat:${patient.id}` }] }],
    window: { from: null, to: null, asOf: null, semantics: 'the whole record' },
    truncated: false,
    assumptions: [],
    ageOn: '2026-06-30',
    patient,
  }),
};

describe(ToolsService.name, () => {
  const cohort = { inOneRead: <T>(work: () => Promise<T>) => work() } as unknown as CohortRepository;
  const pseudonyms = { patientHandle: () => 'pt_handle' } as unknown as PseudonymService;
  const sut = new ToolsService([encounters], cohort, pseudonyms, {} as DerivedRowsService);
  const authorize = () => new PatientReadGate(patient.id, [], false);

  it('scrubs an agent’s rows with the caller’s finder memo, the patient citation under its handle, as without one', async () => {
    const memo = new IdentifierFinderMemo();
    const finderFor = jest.spyOn(memo, 'finderFor');
    const first = await sut.invoke(authorize(), 'patient_encounters', 'agent', {}, memo);
    const second = await sut.invoke(authorize(), 'patient_encounters', 'agent', {}, memo);
    expect(finderFor).toHaveBeenCalledTimes(2);
    expect(new Set(finderFor.mock.results.map((result) => result.value)).size).toBe(1);
    expect(second).toEqual(first);
    expect(await sut.invoke(authorize(), 'patient_encounters', 'agent', {})).toEqual(first);
    expect(first.rows).toEqual([{ citation: 'enc:1', notes: [{ text: '[name removed] seen ([MRN removed])', citation: 'pat:pt_handle' }] }]);
  });

  it('answers nothing from a tool that read no access probe through its gate: the read fails closed', async () => {
    const unprobed: Tool = { ...encounters, execute: (read, gate, query) => encounters.execute(read, { patientId: gate.patientId, careTeamIds: gate.careTeamIds, breakGlass: gate.breakGlass, admit: () => undefined }, query) };
    const tools = new ToolsService([unprobed], cohort, pseudonyms, {} as DerivedRowsService);
    await expect(tools.invoke(authorize(), 'patient_encounters', StaffRole.Clinician, {})).rejects.toThrow('no access probe was decided on');
  });
});
