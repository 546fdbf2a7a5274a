import { Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsObject, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { ProposalKind, ProposalStatus } from '../enum';
import { IntegerQueryField } from '../../common/validation/fields';
import { FreeTextField, OptionalFreeTextField } from '../../common/validation/text';
import { CITATION_MAX_LENGTH, IsCitationList, MAX_CITATIONS, PROPOSAL_CONTENT_BY_KIND, PROPOSAL_CONTENT_SCHEMAS } from './proposal-content.dto';
import { CITATION_FORMS_TEXT } from '../../clinical/citation-grammar';
import { CARE_TEAM_CODE, CARE_TEAM_CODE_RULE } from '../../common/care-team-code';
import { SEALED_CURSOR } from '../../phi/sealed-cursor';

/**
 * Longer than any cursor the review queue issues: a sealed (`CursorSealer`) timestamp and UUID are
 * under 160 characters of base64url.
 */
export const REVIEW_QUEUE_CURSOR_MAX_LENGTH = 256;

/** A care team's code, as the teams are coded (the worklist's path takes the same). */

/** What every proposal body has besides its kind and content. */
class ProposalFieldsDto {
  @FreeTextField({ min: 10, max: 2000, description: 'Why: shown to the reviewer.' })
  rationale: string;

  @ApiProperty({ type: [String], maxItems: MAX_CITATIONS, items: { type: 'string', maxLength: CITATION_MAX_LENGTH }, example: ['obs:6b1f0c1e-7a7e-4f57-9b3e-0c8f3a6f2d11'], description: `Rows of this patient the proposal rests on, as the tools returned them: ${CITATION_FORMS_TEXT}.` })
  @IsArray()
  @ArrayMaxSize(MAX_CITATIONS)
  @IsCitationList()
  citations: string[];
}

/**
 * The body of `propose_action` as validated: the content is checked against its kind's DTO by the
 * service (KIND_POLICY), with the field names prefixed `content.`. The OpenAPI document shows the
 * same rules as one closed schema per kind (PROPOSAL_BODY_SCHEMA).
 */
export class CreateProposalDto extends ProposalFieldsDto {
  @ApiProperty({ enum: ProposalKind })
  @IsIn(Object.values(ProposalKind))
  kind: ProposalKind;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The kind’s typed content.' })
  @IsObject()
  content: Record<string, unknown>;
}

/** One documented body per kind: `kind` fixed, `content` the kind's closed content schema. */
function proposalBodyOf(kind: ProposalKind, content: Type<object>): Type<object> {
  class ProposalBodyDto extends ProposalFieldsDto {
    @ApiProperty({ enum: [kind] })
    kind: ProposalKind;

    @ApiProperty({ type: content })
    content: object;
  }
  const name = `${content.name.replace(/ContentDto$/, '')}ProposalDto`;
  Object.defineProperty(ProposalBodyDto, 'name', { value: name });
  return ProposalBodyDto;
}

export const PROPOSAL_BODY_VARIANTS = Object.values(ProposalKind).map((kind) => ({ kind, dto: proposalBodyOf(kind, PROPOSAL_CONTENT_BY_KIND[kind]) }));

/** `propose_action`'s body in the OpenAPI document: `oneOf` the kinds, with `kind` as the discriminator. */
export const PROPOSAL_BODY_SCHEMA = {
  oneOf: PROPOSAL_BODY_VARIANTS.map(({ dto }) => ({ $ref: getSchemaPath(dto) })),
  discriminator: { propertyName: 'kind', mapping: Object.fromEntries(PROPOSAL_BODY_VARIANTS.map(({ kind, dto }) => [kind, getSchemaPath(dto)])) },
};

export class DecisionDto {
  @ApiProperty({ type: 'integer', format: 'int32', description: 'The version being decided: a decision on a stale version is refused (409).', minimum: 1, maximum: 2147483647 })
  @IsInt()
  @Min(1)
  @Max(2147483647)
  version: number;

  @OptionalFreeTextField({ min: 3, max: 1000, description: 'Why: required to reject or cancel (400 without it), optional otherwise.' })
  reason?: string;
}

export class EditAndApproveDto extends DecisionDto {
  @ApiProperty({ oneOf: PROPOSAL_CONTENT_SCHEMAS.map((dto) => ({ $ref: getSchemaPath(dto) })), description: 'The new content of the proposal’s kind (re-validated).' })
  @IsObject()
  content: Record<string, unknown>;

  @OptionalFreeTextField({ min: 10, max: 2000 })
  rationale?: string;

  @ApiPropertyOptional({ type: [String], maxItems: MAX_CITATIONS, items: { type: 'string', maxLength: CITATION_MAX_LENGTH } })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_CITATIONS)
  @IsCitationList()
  citations?: string[];
}

export class ListProposalsQueryDto {
  @ApiPropertyOptional({ enum: ProposalStatus })
  @IsOptional()
  @IsIn(Object.values(ProposalStatus))
  status?: ProposalStatus;

  @ApiPropertyOptional({ enum: ProposalKind })
  @IsOptional()
  @IsIn(Object.values(ProposalKind))
  kind?: ProposalKind;

  @ApiPropertyOptional({ format: 'uuid', maxLength: 36 })
  @IsOptional()
  @Matches(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message: 'patientId must be a UUID' })
  patientId?: string;

  @ApiPropertyOptional({ format: 'uuid', maxLength: 36, description: 'Only proposals filed by this staff user.' })
  @IsOptional()
  @Matches(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { message: 'proposerId must be a UUID' })
  proposerId?: string;

  @ApiPropertyOptional({ type: String, pattern: CARE_TEAM_CODE.source, maxLength: 64, example: 'primary-care-north', description: 'Only patients of this care team (its code; one of your own teams, else 400).' })
  @IsOptional()
  @Matches(CARE_TEAM_CODE, { message: `careTeam must be a care-team code: ${CARE_TEAM_CODE_RULE}` })
  careTeam?: string;

  @IntegerQueryField({ min: 0, max: 8760, description: 'Only proposals that have waited for a decision at least this many hours (since they entered review).' })
  minWaitingHours?: number;

  @ApiPropertyOptional({ enum: ['newest', 'oldest'], default: 'newest', description: '`oldest`: the longest-waiting first.' })
  @IsOptional()
  @IsIn(['newest', 'oldest'])
  sort?: 'newest' | 'oldest';

  @IntegerQueryField({ min: 1, max: 100, default: 50, description: 'Page size.' })
  limit?: number;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: REVIEW_QUEUE_CURSOR_MAX_LENGTH,
    pattern: SEALED_CURSOR.source,
    description: 'The previous page’s `nextCursor`, sealed: it pages only for the user it was issued to, with the same filters and sort, for an hour.',
  })
  @IsOptional()
  @IsString()
  @Length(1, REVIEW_QUEUE_CURSOR_MAX_LENGTH)
  @Matches(SEALED_CURSOR, { message: 'cursor must be a nextCursor as the service issued it' })
  cursor?: string;
}
