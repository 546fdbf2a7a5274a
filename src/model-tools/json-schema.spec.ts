import { CreateProposalDto } from '../approvals/dto/proposal-requests.dto';
import { CareGapsQueryDto } from '../tools/dto/care-gaps-query.dto';
import { EncountersQueryDto } from '../tools/dto/encounters-query.dto';
import { LabsQueryDto } from '../tools/dto/labs-query.dto';
import { jsonSchemaOf } from './json-schema';

describe(jsonSchemaOf.name, () => {
  it('gives a flat, closed schema with inherited fields, formats, patterns and limits', () => {
    const sut = jsonSchemaOf(LabsQueryDto);
    expect(sut.additionalProperties).toBe(false);
    expect(sut.required).toBeUndefined();
    expect(Object.keys(sut.properties ?? {}).sort()).toEqual(['code', 'from', 'to']);
    expect(sut.properties?.from).toMatchObject({ type: 'string', format: 'date' });
    expect(sut.properties?.code).toMatchObject({ type: 'array', maxItems: 20, items: { type: 'string', pattern: '^\\d{1,7}-\\d$' } });
  });

  it('turns enums into closed string lists', () => {
    expect(jsonSchemaOf(EncountersQueryDto).properties?.class).toMatchObject({ type: 'string', enum: expect.arrayContaining(['ambulatory']) });
    expect(jsonSchemaOf(CareGapsQueryDto).properties?.measure).toMatchObject({ type: 'array', items: { type: 'string' } });
  });

  it('marks required fields of a request DTO', () => {
    const sut = jsonSchemaOf(CreateProposalDto);
    expect(sut.required?.sort()).toEqual(['citations', 'content', 'kind', 'rationale']);
    expect(sut.properties?.rationale).toMatchObject({ type: 'string', minLength: 10, maxLength: 2000 });
  });
});
