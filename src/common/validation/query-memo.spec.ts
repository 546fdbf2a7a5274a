import 'reflect-metadata';
import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import fc from 'fast-check';
import { registerDecorator } from 'class-validator';
import { EncountersQueryDto } from '../../tools/dto/encounters-query.dto';
import { LabsQueryDto } from '../../tools/dto/labs-query.dto';
import { createValidationPipe, validationPipeOptions } from '../http/validation.pipe';
import { QUERY_MEMO_SIZE, QueryMemoValidationPipe, ValidatedByValueOnly } from './query-memo';

/** The same options as `createValidationPipe`, without the memo: the reference. */
function referencePipe(): ValidationPipe {
  return new ValidationPipe(validationPipeOptions());
}

type Outcome = { ok: true; prototype: object | null; fields: Record<string, unknown> } | { ok: false; status: number; body: unknown };

async function outcome(pipe: ValidationPipe, value: unknown, metatype: ArgumentMetadata['metatype']): Promise<Outcome> {
  try {
    const result = (await pipe.transform(value, { type: 'query', metatype })) as object;
    return { ok: true, prototype: Object.getPrototypeOf(result) as object | null, fields: { ...result } };
  } catch (error) {
    const problem = error as { getStatus(): number; getResponse(): unknown; errors?: unknown };
    return { ok: false, status: problem.getStatus(), body: { response: problem.getResponse(), errors: problem.errors } };
  }
}

const values = fc.constantFrom('2160-0', '4548-4', '2160-0,4548-4', ' 2160-0 ', 'x', '', '2026-01-31', '2026-02-30', '2025-07-01', '1899-12-31', 'inpatient', 'ambulatory', 'emergency', 'INPATIENT');
const queries = fc.dictionary(fc.constantFrom('code', 'from', 'to', 'class', 'other', 'asOf'), fc.oneof(values, fc.array(values, { maxLength: 3 })), { maxKeys: 3 });

describe(QueryMemoValidationPipe.name, () => {
  it('answers every query of the tool DTOs as the validation pipe without a memo does, seen or not', async () => {
    const sut = createValidationPipe();
    const reference = referencePipe();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(LabsQueryDto, EncountersQueryDto), queries), { minLength: 1, maxLength: 20 }), async (requests) => {
        // Each query twice: once to fill the memo, once from it.
        for (const [metatype, query] of [...requests, ...requests]) {
          expect(await outcome(sut, query, metatype)).toEqual(await outcome(reference, query, metatype));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('hands every request a DTO of its own: what one handler changes never reaches the next', async () => {
    const sut = createValidationPipe();
    const seen: LabsQueryDto[] = [];
    for (let request = 0; request < 3; request += 1) {
      const dto = (await sut.transform({ code: '2160-0,4548-4' }, { type: 'query', metatype: LabsQueryDto })) as LabsQueryDto;
      expect(dto).toBeInstanceOf(LabsQueryDto);
      expect({ ...dto }).toEqual({ code: ['2160-0', '4548-4'] });
      expect(seen).not.toContain(dto);
      seen.push(dto);
      dto.code?.push('1-1');
      dto.from = '2020-01-01';
    }
  });

  it('validates every time a DTO that is not marked, one that only inherits the mark, and a named query parameter', async () => {
    let allowed = true;
    class Flipping {
      value?: string;
    }
    registerDecorator({ name: 'flipping', target: Flipping, propertyName: 'value', validator: { validate: () => allowed } });
    @ValidatedByValueOnly()
    class Marked extends Flipping {}
    class Inheriting extends Marked {}
    const sut = createValidationPipe();
    expect(await outcome(sut, { value: 'a' }, Flipping)).toMatchObject({ ok: true });
    expect(await outcome(sut, { value: 'a' }, Inheriting)).toMatchObject({ ok: true });
    expect(await outcome(sut, { value: 'a' }, Marked)).toMatchObject({ ok: true });
    const named = (): Promise<unknown> => sut.transform({ value: 'a' }, { type: 'query', metatype: Marked, data: 'filter' });
    await expect(named()).resolves.toBeInstanceOf(Marked);
    allowed = false;
    // A named query parameter (`@Query('filter')`) is not the whole query: never kept.
    await expect(named()).rejects.toMatchObject({ status: 400 });
    expect(await outcome(sut, { value: 'a' }, Flipping)).toMatchObject({ ok: false, status: 400 });
    expect(await outcome(sut, { value: 'a' }, Inheriting)).toMatchObject({ ok: false, status: 400 });
    // The marked class says its rules read only the query: its valid answer is kept.
    expect(await outcome(sut, { value: 'a' }, Marked)).toMatchObject({ ok: true });
  });

  it('keeps at most its bound of queries per DTO and still answers past it', async () => {
    const sut = createValidationPipe();
    const reference = referencePipe();
    for (let index = 0; index < QUERY_MEMO_SIZE + 10; index += 1) {
      const query = { code: `${index}-0` };
      expect(await outcome(sut, query, LabsQueryDto)).toEqual(await outcome(reference, query, LabsQueryDto));
    }
    const memo = (sut as unknown as { memo: Map<unknown, Map<string, unknown>> }).memo.get(LabsQueryDto);
    expect(memo?.size).toBeLessThanOrEqual(QUERY_MEMO_SIZE);
  });
});
