import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TOOL_NAMES } from './tool-names';
import { AppliedWindow, ToolEnvelope, Truncation } from './envelope';

class AppliedWindowDto implements AppliedWindow {
  @ApiProperty({ type: String, nullable: true, format: 'date' })
  from: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'date' })
  to: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'date', description: 'The as-of date of an evaluation.' })
  asOf: string | null;

  @ApiProperty({ example: 'No window given: the whole record of encounters (by start date).' })
  semantics: string;
}

class TruncationDto implements Truncation {
  @ApiProperty({ example: 100 })
  limit: number;

  @ApiProperty({ example: 'Only the 100 most recent are shown; narrow the window with from/to.' })
  hint: string;
}

export class ToolEnvelopeDto implements ToolEnvelope {
  @ApiProperty({ enum: TOOL_NAMES })
  tool: (typeof TOOL_NAMES)[number];

  @ApiProperty({ enum: ['ok', 'empty', 'partial'], description: '`partial`: the result was cut or read only part of the record.' })
  status: 'ok' | 'empty' | 'partial';

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: "The patient header, cut to the caller's role (`handle` always; identifiers only for treating roles).",
  })
  patient: Record<string, unknown>;

  @ApiProperty({ type: AppliedWindowDto })
  window: AppliedWindowDto;

  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'Result rows, each with a `citation` (e.g. `obs:<uuid>`) or `evidence` citations; fields cut to the role.',
  })
  rows: Record<string, unknown>[];

  @ApiProperty()
  rowCount: number;

  @ApiProperty()
  truncated: boolean;

  @ApiPropertyOptional({ type: TruncationDto })
  truncation?: TruncationDto;

  @ApiProperty({ type: [String], example: ['patient.mrn', 'notes.text'], description: 'Fields this role may not see.' })
  redactedFields: string[];

  @ApiProperty({ type: [String] })
  assumptions: string[];

  @ApiProperty({ description: 'True when read through emergency access (audited).' })
  breakGlass: boolean;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'feature_attribution: the prediction, citable by its own `citation` (`prediction:readmission-30d@<asOf>`): `riskPercent` (the predicted 30-day readmission risk, percent to 1 decimal), the index stay (`indexAdmission`, `admittedOn`, `dischargedOn`), the model (`modelId`, `modelVersion`, `disclaimer`), `logit` and `baselineLogit` (log-odds to 3 decimals).',
  })
  summary?: Record<string, unknown>;
}
