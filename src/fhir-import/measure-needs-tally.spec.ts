import { ImportNeeds, MeasureNeedsTally, UNMET_SHOWN } from './measure-needs-tally';

const needs: ImportNeeds = {
  day: '2026-12-07',
  editions: [
    { key: 'CMS122', edition: '2025-qicore6', version: '1.0.000', inForce: true },
    { key: 'CMS2', edition: '2024-qicore4', version: '0.9.000', inForce: false },
  ],
  needs: [
    { resourceType: 'Encounter', label: '"Office Visit" [qicore-encounter]', stored: true, measures: ['CMS122', 'CMS2'] },
    { resourceType: 'Encounter', label: '"Hospice Encounter" [qicore-encounter]', stored: true, measures: ['CMS122'] },
    { resourceType: 'Immunization', label: '"Flu Vaccine" [qicore-immunization]', stored: true, measures: ['CMS2'] },
    { resourceType: 'Coverage', label: '"Payer Type" [qicore-coverage]', stored: false, measures: ['CMS122', 'CMS2'] },
    { resourceType: 'Claim', label: '(any) [qicore-claim]', stored: false, measures: ['CMS122'] },
  ],
  select: () => [],
};

describe(MeasureNeedsTally.name, () => {
  it('counts resources per need and per type, and says what was needed and lacked, and what Vigil does not store', () => {
    const sut = new MeasureNeedsTally(needs);
    sut.count('Encounter', [0]);
    sut.count('Encounter', [0]);
    sut.count('Coverage', [3]);
    sut.count('Observation', []);
    expect(sut.carried(0)).toBe(2);
    expect(sut.carried(1)).toBe(0);
    expect(sut.render()).toEqual([
      'Data the loaded measures read (their ELM retrieves) against this import: 2 loaded measures, in the edition in force on 2026-12-07 (2025-qicore6 ×1); with none in force on 2026-12-07, the newest loaded (CMS2 2024-qicore4 0.9.000)',
      '  resource type  needs  met  resources  measures',
      '  Claim              1    0          0         1  not stored by Vigil',
      '  Coverage           1    1          1         2  not stored by Vigil',
      '  Encounter          2    1          2         2',
      '  Immunization       1    0          0         1',
      'Needed, and no resource of the type in this import meets any need:',
      '  Immunization → 1 measure: CMS2',
      'Needed, not stored by Vigil (a measure reading these finds none, whatever the import holds):',
      '  Claim (0 in this import meet a need) → 1 measure: CMS122',
      '  Coverage (1 in this import meet a need) → 2 measures: CMS122, CMS2',
      'Needed, none in this import (of the types it holds; most-needed first): 1',
      '  Encounter "Hospice Encounter" [qicore-encounter] → 1 measure: CMS122',
    ]);
  });

  it('lists the most-needed unmet needs first, up to a limit, unless asked for all', () => {
    const many: ImportNeeds = {
      ...needs,
      editions: [needs.editions[0]],
      needs: Array.from({ length: UNMET_SHOWN + 5 }, (_, i) => ({
        resourceType: 'Encounter',
        label: `"Set ${String(i).padStart(2, '0')}"`,
        stored: true,
        measures: i === UNMET_SHOWN + 4 ? ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'] : ['A'],
      })),
    };
    const sut = new MeasureNeedsTally(many);
    sut.count('Encounter', [0]);
    const lines = sut.render();
    const unmet = lines.slice(lines.findIndex((line) => line.startsWith('Needed, none in this import')));
    expect(unmet[0]).toBe(`Needed, none in this import (of the types it holds; most-needed first): ${UNMET_SHOWN + 4}`);
    expect(unmet[1]).toBe(`  Encounter "Set ${UNMET_SHOWN + 4}" → 8 measures: A, B, C, D, E, F and 2 more`);
    expect(unmet).toHaveLength(UNMET_SHOWN + 2);
    expect(unmet.at(-1)).toBe('  … and 4 more (--all-needs lists every one)');
    expect(sut.render(true).filter((line) => line.startsWith('  Encounter "Set'))).toHaveLength(UNMET_SHOWN + 4);
  });
});
