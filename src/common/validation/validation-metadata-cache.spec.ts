import { getMetadataStorage, IsInt, IsOptional, IsString, Max, MaxLength, validate, ValidationError } from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { memoizeValidationMetadata } from './validation-metadata-cache';

class WindowDto {
  @IsOptional()
  @IsString()
  from?: string;
}

class LabsDto extends WindowDto {
  @IsOptional()
  @IsInt()
  @Max(20)
  limit?: number;
}

const OPTIONS = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true };
const INPUTS: [new () => object, object][] = [
  [LabsDto, {}],
  [LabsDto, { from: '2026-01-01', limit: 3 }],
  [LabsDto, { from: 7, limit: 30, other: 'x' }],
  [WindowDto, { from: 'a', limit: 3 }],
  [WindowDto, { from: ['a'] }],
];

/** Every outcome of the inputs, as the pipe reads them (the errors without the instances). */
async function outcomes(): Promise<unknown[]> {
  const strip = (errors: ValidationError[]): unknown[] => errors.map(({ property, constraints, children }) => ({ property, constraints, children: strip(children ?? []) }));
  return Promise.all(INPUTS.map(async ([dto, plain]) => strip(await validate(plainToInstance(dto, plain), OPTIONS))));
}

describe(memoizeValidationMetadata.name, () => {
  const storage = getMetadataStorage();
  const before = outcomes();
  memoizeValidationMetadata();
  memoizeValidationMetadata();

  it('gives every validation the outcome it had before', async () => {
    expect(await outcomes()).toEqual(await before);
  });

  it('looks a class’s rules up once for the same options, and again for other options', () => {
    const first = storage.getTargetValidationMetadatas(LabsDto, '', false, false);
    expect(storage.getTargetValidationMetadatas(LabsDto, '', false, false)).toBe(first);
    expect(first.map((rule) => rule.propertyName).sort()).toEqual(['from', 'from', 'limit', 'limit', 'limit']);
    expect(storage.getTargetValidationMetadatas(LabsDto, '', false, false, ['admin'])).not.toBe(first);
    expect(storage.groupByPropertyName(first)).toBe(storage.groupByPropertyName(first));
  });

  it('sees a rule registered after the first lookup', async () => {
    const plain = { from: 'x'.repeat(30) };
    expect(await validate(plainToInstance(LabsDto, plain), OPTIONS)).toEqual([]);
    // A decorator applied now, as a module loaded later would: the class inheriting it sees it too.
    MaxLength(10)(WindowDto.prototype, 'from');
    const errors = await validate(plainToInstance(LabsDto, plain), OPTIONS);
    expect(errors.map((error) => error.constraints)).toEqual([{ maxLength: expect.any(String) }]);
  });
});
