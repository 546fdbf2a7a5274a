import fc from 'fast-check';
import { careGapEncounterFilter } from '../clinical/care-gaps/cql/encounter-retrieves';
import { careGapObservationFilter } from '../clinical/care-gaps/cql/observation-retrieves';
import { postgresArrayLiteral, withFixedLists } from './named-statement.repository';

// pg's own encoding of a parameter (what it sends for an array), the oracle the literals must equal.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { prepareValue } = require('pg/lib/utils') as { prepareValue: (value: unknown) => unknown };

/** Strings with what an array literal must escape or quote: backslashes, quotes, commas, braces, blanks, NULL, non-ASCII. */
const awkward = fc.oneof(
  fc.string({ unit: fc.constantFrom('\\', '"', ',', '{', '}', ' ', '\t', '\n', "'", 'a', 'Z', '0', 'é', '😀') }),
  fc.constantFrom('', 'NULL', 'null', '\\\\"', '"}'),
  fc.string({ unit: 'grapheme' }),
);

describe(postgresArrayLiteral.name, () => {
  it('is the text pg sends for any list of strings and nulls', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof({ weight: 5, arbitrary: awkward }, { weight: 1, arbitrary: fc.constant(null) })), (list) => {
        expect(postgresArrayLiteral(list)).toBe(prepareValue(list));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves a list of anything else to pg', () => {
    expect(postgresArrayLiteral([1, 2])).toBeNull();
    expect(postgresArrayLiteral(['a', ['b']])).toBeNull();
  });
});

describe(withFixedLists.name, () => {
  it('sends a frozen list as its literal, made once, and every other value as it is, without changing the values given', () => {
    const teams = Object.freeze(['7c0e0c2e-0000-4000-8000-000000000001', 'x"\\y']);
    const open = ['a', 'b'];
    const values = [teams, open, null, 3, 'text', Object.freeze([1, 2])];
    const sent = withFixedLists(values);
    expect(sent).toEqual([prepareValue(teams), open, null, 3, 'text', values[5]]);
    expect(sent[1]).toBe(open);
    expect(values[0]).toBe(teams);
    expect(withFixedLists([teams])[0]).toBe(sent[0]);
  });

  it('hands back the same values when none is a frozen list', () => {
    const values = [['a'], 'b', null];
    expect(withFixedLists(values)).toBe(values);
  });

  it('encodes every fixed list the cohort reads bind (the care-gap code lists) once: each is frozen, and its literal is pg’s', () => {
    const period = { start: '2025-07-01', end: '2026-06-30' };
    const observations = careGapObservationFilter(period);
    const lists = [observations.codes, observations.since.codes, careGapEncounterFilter(period).allTimeCodes];
    for (const list of lists) {
      expect(Object.isFrozen(list)).toBe(true);
      expect(withFixedLists([list])).toEqual([prepareValue(list)]);
    }
  });
});
