import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { IntegerQueryField } from './fields';

class PageQuery {
  @IntegerQueryField({ min: 1, max: 100, description: 'Page size.' })
  limit?: number;
}

const errorsFor = async (limit: string) => (await validate(plainToInstance(PageQuery, { limit }))).flatMap((error) => Object.keys(error.constraints ?? {}));

describe(IntegerQueryField.name, () => {
  it.each(['1', '10', '100'])('reads %s as a number', async (value) => {
    expect(plainToInstance(PageQuery, { limit: value }).limit).toBe(Number(value));
    expect(await errorsFor(value)).toEqual([]);
  });

  it.each(['0x10', '1e1', ' 10', '10 ', '10.0', '+10', '010', '1_0', '', 'ten', '１０'])('refuses %j as an integer', async (value) => {
    expect(await errorsFor(value)).toContain('isInt');
  });

  it.each([['0', 'min'], ['101', 'max']])('applies the bounds to %s', async (value, rule) => {
    expect(await errorsFor(value)).toEqual([rule]);
  });
});
