import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { READMISSION_MODEL } from './readmission-model';

const CARD = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'readmission-model-card.md'), 'utf8');
const number = (text: string) => Number(text.replace('−', '-').replace('+', ''));

describe('READMISSION_MODEL', () => {
  it('matches the coefficient table of docs/readmission-model-card.md', () => {
    const rows = new Map(
      [...CARD.matchAll(/^\| `?([a-z_0-9]+|intercept w₀)`? \| ([−+]?[\d.]+) \| ([\d.]+|–) \|$/gm)].map(([, name, weight, baseline]) => [
        name,
        { weight: number(weight), baseline: baseline === '–' ? null : number(baseline) },
      ]),
    );
    expect(rows.get('intercept w₀')).toEqual({ weight: READMISSION_MODEL.intercept, baseline: null });
    for (const spec of READMISSION_MODEL.features) {
      expect({ feature: spec.feature, ...rows.get(spec.feature) }).toEqual({ feature: spec.feature, weight: spec.weight, baseline: spec.baseline });
    }
    expect(rows.size).toBe(READMISSION_MODEL.features.length + 1);
  });

  it('puts the baseline patient at about 12 % risk, as the card says', () => {
    const baselineLogit = READMISSION_MODEL.features.reduce((sum, spec) => sum + spec.weight * spec.baseline, READMISSION_MODEL.intercept);
    expect(baselineLogit).toBeCloseTo(-1.988, 3);
    expect(1 / (1 + Math.exp(-baselineLogit))).toBeCloseTo(0.12, 2);
  });
});
