import { MEASURE_IDS } from '../../src/clinical/care-gaps';
import { buildMicrocells } from '../../src/population/microcells';
import { publishPopulationCounts } from '../../src/population/population-counts';
import { fixtureCohort } from '../setup/population-fixture';
import { recordKeyOf } from '../setup/population-disclosure-cases';
jest.setTimeout(1_800_000);
it('scale', async () => {
  const { patients } = fixtureCohort();
  const lines: string[] = [];
  for (const copies of [1, 2, 4]) {
    const ids: string[] = []; const source = new Map<string, string>();
    for (let j = 0; j < copies; j++) MEASURE_IDS.forEach((m, i) => { const id = j === 0 ? m : `${m}x${j}`; ids.push(id); source.set(id, MEASURE_IDS[(i + j) % MEASURE_IDS.length]); });
    const cells = (seed: number, extra: number) => buildMicrocells(patients.slice(0, patients.length - extra).flatMap((p) => ids.map((measureId) => ({
      careTeams: p.careTeams, age: p.age, sex: p.sex, measureId, status: p.results[source.get(measureId)!].status as never, reasonCode: p.reasonCodes[source.get(measureId)!], recordKey: recordKeyOf(seed, p.key),
    }))));
    const domains = { careTeams: ['primary-care-north', 'primary-care-south'], measureIds: ids };
    for (const seed of [0, 1]) {
      const t0 = Date.now();
      const first = await publishPopulationCounts(cells(seed, 1), domains);
      const t1 = Date.now();
      await publishPopulationCounts(cells(seed, 0), domains, { previous: first.record });
      const t2 = Date.now();
      lines.push(`${ids.length} measures, key draw ${seed}: alone ${t1 - t0} ms, with previous ${t2 - t1} ms`);
    }
  }
  process.stdout.write(lines.join('\n') + '\n');
});
