import { Criterion, scoreGroup } from './population-rules';
import { ReasonCriterion } from './reason-codes';

// Made-up criteria: scoring reads only whether they hold, and passes their codes through.
const yes = (code = 'x'): Criterion => ({ met: true, evidence: [`obs:${code}`], code: code as ReasonCriterion, text: code });
const no = (code = 'x'): Criterion => ({ met: false, evidence: [], code: code as ReasonCriterion, text: code });

describe(scoreGroup.name, () => {
  it('counts the populations as the stewards’ MeasureReports do', () => {
    // Not in the initial population: nothing else counts.
    expect(scoreGroup({ id: 'g', initialPopulation: no('age'), exclusion: yes('hospice'), numerator: yes() }, false)).toMatchObject({
      populations: { initialPopulation: false, denominator: false, denominatorExclusion: false, denominatorException: false, numerator: false },
      status: 'not-applicable',
      reason: { code: 'initial-population:age' },
    });
    // Excluded: the numerator is not counted even when its criteria hold.
    expect(scoreGroup({ id: 'g', initialPopulation: yes(), exclusion: yes('hospice'), numerator: yes() }, false)).toMatchObject({
      populations: { initialPopulation: true, denominator: true, denominatorExclusion: true, numerator: false },
      reason: { code: 'denominator-exclusion:hospice' },
    });
    // An exception applies only outside the numerator.
    expect(scoreGroup({ id: 'g', initialPopulation: yes(), exclusion: no(), exception: yes('statin-allergy'), numerator: yes('statin') }, false)).toMatchObject({
      populations: { numerator: true, denominatorException: false },
      status: 'closed-gap',
    });
    expect(scoreGroup({ id: 'g', initialPopulation: yes(), exclusion: no(), exception: yes('statin-allergy'), numerator: no('no-statin') }, false)).toMatchObject({
      populations: { numerator: false, denominatorException: true },
      status: 'not-applicable',
      reason: { code: 'denominator-exception:statin-allergy' },
    });
  });

  it('reads an inverse measure’s numerator as the gap', () => {
    expect(scoreGroup({ id: 'g', initialPopulation: yes(), exclusion: no(), numerator: yes('above-9') }, true)).toMatchObject({ status: 'open-gap', reason: { code: 'numerator:above-9' } });
    expect(scoreGroup({ id: 'g', initialPopulation: yes(), exclusion: no(), numerator: no('below-9') }, true)).toMatchObject({ status: 'closed-gap', reason: { code: 'not-numerator:below-9' } });
  });
});
