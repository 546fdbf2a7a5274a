import { date, dec, dt, int, nul, nullAs, op, qty, run, str } from '../testing/elm-builders';
import type { ElmNode } from '../elm.types';

/**
 * Date-time precision, durations and quantity comparisons, transcribed from the cqframework
 * cql-tests suite (tests/cql/CqlDateTimeOperatorsTest.xml, CqlComparisonOperatorsTest.xml,
 * CqlArithmeticFunctionsTest.xml; Apache-2.0): each row is a test's expression and its output.
 */

const between = (type: string, precision: string, a: ElmNode, b: ElmNode) => op(type, [a, b], { precision });

describe('comparison at the precision both sides have (cql-tests)', () => {
  it.each([
    ['DateTimeEqTrue', op('Equal', [dt([2012, 2, 15, 12, 10, 59, 456]), dt([2012, 2, 15, 12, 10, 59, 456])]), true],
    ['DateTimeEqFalse', op('Equal', [dt([2012, 2, 15, 12, 10, 59, 456]), dt([2012, 2, 15, 12, 10, 59, 457])]), false],
    ['DateTimeUTC (same instant, two offsets)', op('Equal', [dt([2014, 1, 25, 14, 30, 14, 559], 1), dt([2014, 1, 25, 13, 30, 14, 559], 0)]), true],
    ['DateTimeEqNull (different precisions)', op('Equal', [dt([2012, 2, 15]), dt([2012, 2, 15, 10])]), null],
    ['DateTimeEquivalentFalse (different precisions)', op('Equivalent', [dt([2012, 2, 15]), dt([2012, 2, 15, 10])]), false],
    ['DateTimeGreaterUncertain (decided at a coarser precision)', op('Greater', [dt([2012, 3]), dt([2012, 2, 15])]), true],
    ['DateTimeLessNull (undecided)', op('Less', [dt([2012, 2]), dt([2012, 2, 15])]), null],
    ['DateTimeSameAsMonth', op('SameAs', [dt([2012, 2, 15]), dt([2012, 2, 28])], { precision: 'Month' }), true],
    ['DateTimeSameAsDayFalse', op('SameAs', [dt([2012, 2, 15]), dt([2012, 2, 28])], { precision: 'Day' }), false],
    ['DateTimeSameAsNull (finer than both)', op('SameAs', [dt([2012, 2, 15]), dt([2012, 2, 15])], { precision: 'Hour' }), null],
    ['SameOrBeforeDayTrue', op('SameOrBefore', [dt([2012, 2, 15, 10]), dt([2012, 2, 15, 9])], { precision: 'Day' }), true],
    ['SameOrAfterHourFalse', op('SameOrAfter', [dt([2012, 2, 15, 8]), dt([2012, 2, 15, 9])], { precision: 'Hour' }), false],
    ['AfterMillisecondFalse', op('After', [dt([2004, 10, 10, 20, 30, 15, 512]), dt([2004, 10, 10, 20, 30, 15, 513])], { precision: 'Millisecond' }), false],
    ['DateEqNull (Date vs Date)', op('Equal', [date([2012, 2]), date([2012, 2, 15])]), null],
    ['TestEqualNull', op('Equal', [nullAs('DateTime'), dt([2012])]), null],
  ])('%s', (_name, expression, expected) => {
    expect(run(expression)).toEqual(expected);
  });
});

describe('date-time arithmetic (cql-tests)', () => {
  it.each([
    ['DateTimeAddThreeWeeks', op('Equal', [op('Add', [dt([2018, 5, 2]), qty(3, 'weeks')]), dt([2018, 5, 23])])],
    ['DateTimeLeapDayAddYearInWeeks', op('Equal', [op('Add', [dt([2023, 3, 2]), qty(52, 'weeks')]), dt([2024, 2, 29])])],
    ['DateTimeAdd5HoursWithLeftMinPrecisionDay', op('Equal', [op('Add', [dt([2005, 5, 10]), qty(5, 'hours')]), dt([2005, 5, 10])])],
    ['DateTimeAdd5HoursWithLeftMinPrecisionDayOverflow', op('Equal', [op('Add', [dt([2005, 5, 10]), qty(25, 'hours')]), dt([2005, 5, 11])])],
    ['DateTimeAddLeapYear', op('Equal', [op('Add', [dt([2012, 2, 29]), qty(1, 'year')]), dt([2013, 2, 28])])],
    ['DateAdd2YearsAsMonthsRem1', op('Equal', [op('Add', [date([2014]), qty(25, 'months')]), date([2016])])],
    ['DateTimeSubtract5Days', op('Equal', [op('Subtract', [dt([2005, 5, 10]), qty(5, 'days')]), dt([2005, 5, 5])])],
  ])('%s', (_name, expression) => {
    expect(run(expression)).toBe(true);
  });
});

describe('durations and differences, certain and uncertain (cql-tests)', () => {
  it.each([
    ['DateTimeDurationBetweenYearOffset', between('DurationBetween', 'Year', dt([2005, 5]), dt([2010, 4])), 4],
    ['DateTimeDurationBetweenMonth', between('DurationBetween', 'Month', date([2014, 1, 31]), date([2014, 2, 1])), 0],
    ['DateTimeDurationBetweenDaysDiffYears', between('DurationBetween', 'Day', dt([2010, 10, 12, 12, 5]), dt([2008, 8, 15, 8, 8])), -788],
    ['DurationInYears (dates a day short of a year)', between('DurationBetween', 'Year', date([2012, 3, 10]), date([2013, 3, 9])), 0],
    ['DurationInWeeks', between('DurationBetween', 'Week', dt([2012, 3, 10, 22, 5, 9]), dt([2012, 3, 20, 7, 19, 33])), 1],
    ['DateTimeDifferenceYear', between('DifferenceBetween', 'Year', dt([2000]), dt([2005, 12])), 5],
    ['DateTimeDifferenceWeeks', between('DifferenceBetween', 'Week', dt([2000, 10, 15]), dt([2000, 10, 28])), 1],
    ['DateTimeDifferenceNegative', between('DifferenceBetween', 'Year', dt([2016]), dt([1998])), -18],
    ['DifferenceInHoursAA (across a change of offset)', between('DifferenceBetween', 'Hour', dt([2017, 3, 12, 1, 0, 0, 0], -7), dt([2017, 3, 12, 3, 0, 0, 0], -6)), 1],
    ['DateTimeDurationBetweenMonthUncertain (> 5)', op('Greater', [between('DurationBetween', 'Month', dt([2005]), dt([2006, 7])), int(5)]), true],
    ['DateTimeDurationBetweenMonthUncertain2 (> 5, undecided)', op('Greater', [between('DurationBetween', 'Month', dt([2005]), dt([2006, 2])), int(5)]), null],
    ['DateTimeDurationBetweenMonthUncertain5 (= 24)', op('Equal', [between('DurationBetween', 'Month', dt([2005]), dt([2006, 7])), int(24)]), false],
    ['age in years at a date (a Date against a Date)', op('CalculateAgeAt', [date([1960, 5, 12]), date([2025, 5, 11])], { precision: 'Year' }), 64],
    ['age in years on the birthday', op('CalculateAgeAt', [date([1960, 5, 12]), date([2025, 5, 12])], { precision: 'Year' }), 65],
    ['age of a leap-day birth in a common year (the day clamps to 28 February)', op('CalculateAgeAt', [date([2004, 2, 29]), date([2005, 2, 28])], { precision: 'Year' }), 1],
  ])('%s', (_name, expression, expected) => {
    expect(run(expression)).toEqual(expected);
  });

  it('keeps an uncertain duration as bounds (years between DateTime(2005) and DateTime(2010) is [4, 5])', () => {
    const value = run(between('DurationBetween', 'Year', dt([2005]), dt([2010]))) as { low: number; high: number };
    expect([value.low, value.high]).toEqual([4, 5]);
  });
});

describe('quantities through UCUM (cql-tests CqlComparisonOperatorsTest, CqlArithmeticFunctionsTest)', () => {
  it.each([
    ['QuantityEqCM', op('Equal', [qty(1, 'cm'), qty(10, 'mm')]), true],
    ['GreaterM_CM', op('Greater', [qty(1, 'm'), qty(1, 'cm')]), true],
    ['EquivGM_CM (not convertible)', op('Equal', [qty(1, 'g'), qty(1, 'cm')]), null],
    ['mg to g', op('Equal', [qty(5, 'mg'), qty(0.005, 'g')]), true],
    ['percent against a number is not comparable', op('Greater', [qty(9.5, '%'), qty(9, '%')]), true],
    ['Add quantities of convertible units', op('Equal', [op('Add', [qty(1, 'g'), qty(500, 'mg')]), qty(1.5, 'g')]), true],
    ['Divide a quantity by a number', op('Equal', [op('Divide', [qty(10, 'mg'), qty(2, '1')]), qty(5, 'mg')]), true],
    ['ConvertQuantity mg → g', op('Equal', [op('ConvertQuantity', [qty(5, 'mg'), str('g')]), qty(0.005, 'g')]), true],
    ['ConvertQuantity to an incompatible unit is null', op('IsNull', op('ConvertQuantity', [qty(5, 'mg'), str('cm')])), true],
    ['arithmetic with null', op('Add', [int(1), nul()]), null],
    ['integer overflow is null', op('Add', [int(2147483647), int(1)]), null],
    ['decimal division by zero is null', op('Divide', [dec(1), dec(0)]), null],
  ])('%s', (_name, expression, expected) => {
    expect(run(expression)).toEqual(expected);
  });
});
