import { HttpException } from '@nestjs/common';
import { ProblemException } from '../common/http/problem';
import { validateDto } from '../common/validation/validate-dto';
import { CITATION_FORMS_TEXT, NOT_A_CITATION } from '../clinical/citation-grammar';
import { AgentTool } from './tool-catalog';
import { refusal, ToolRefusal } from './tool-result';

/**
 * Parses the model's argument text. Only narrow, deterministic repairs are made (a bare Python
 * `None` becomes `null`, a trailing comma before `}` or `]` is dropped, an unquoted calendar date
 * such as `2026-06-30` is quoted); anything else is a parse error sent back to the model, never a
 * guess. Repairs run outside string literals only, so text inside a string is never touched.
 */
export function parseArguments(text: string): { ok: true; value: unknown; repaired: boolean } | { ok: false } {
  const source = text.trim() === '' ? '{}' : text;
  try {
    return { ok: true, value: JSON.parse(source), repaired: false };
  } catch {
    const repaired = repairOutsideStrings(source);
    try {
      return { ok: true, value: JSON.parse(repaired), repaired: true };
    } catch {
      return { ok: false };
    }
  }
}

function repairOutsideStrings(text: string): string {
  // Split into string literals (kept verbatim) and the code between them (repaired).
  return text
    .split(/("(?:[^"\\]|\\.)*")/)
    .map((part, index) => (index % 2 === 1 ? part : repairCode(part)))
    .join('');
}

/**
 * A bare date is unambiguous (JSON has no value that looks like `2026-06-30`: as arithmetic it is
 * not JSON at all), so quoting it cannot change the meaning of anything that already parsed.
 */
const BARE_DATE = /(?<![\w.-])(\d{4}-\d{2}-\d{2})(?![\w.:-])/g;

function repairCode(code: string): string {
  return code.replace(/\bNone\b/g, 'null').replace(BARE_DATE, '"$1"').replace(/,\s*([}\]])/g, '$1');
}

/** Normalised form of a call, so "the same call again" is recognised whatever the key order. */
export function callKey(name: string, args: unknown): string {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted((value as Record<string, unknown>)[key])]))
        : value;
  return `${name}:${JSON.stringify(sorted(args))}`;
}

const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Validates parsed arguments with the tool's own DTO (closed: an unknown field is refused by name).
 * A `patientId` is refused before anything else: the patient is bound by the route, never chosen.
 */
export async function validateArguments(tool: AgentTool, args: unknown): Promise<{ ok: true; dto: object } | { ok: false; refusal: ToolRefusal }> {
  if (args && typeof args === 'object' && !Array.isArray(args) && ('patientId' in args || 'patient_id' in args)) {
    return {
      ok: false,
      refusal: refusal(tool.name, 'patient_bound_by_route', true, 'The patient is fixed by the request; remove the patient argument.', [
        { field: 'patientId' in args ? 'patientId' : 'patient_id', reason: 'not_a_parameter' },
      ]),
    };
  }
  // JSON.parse keeps `__proto__` as an own key, and class-transformer then drops it silently: refuse it
  // by name, like any argument the schema does not list.
  const prototypeKey = args && typeof args === 'object' && !Array.isArray(args) ? Object.keys(args).find((key) => PROTOTYPE_KEYS.has(key)) : undefined;
  if (prototypeKey !== undefined) {
    return {
      ok: false,
      refusal: refusal(tool.name, 'invalid_arguments', true, 'Remove the named argument; the schema lists every allowed argument.', [
        { field: prototypeKey, reason: 'not_a_parameter' },
      ]),
    };
  }
  try {
    return { ok: true, dto: await validateDto(tool.argumentsDto, args) };
  } catch (error) {
    if (!(error instanceof ProblemException || error instanceof HttpException)) throw error;
    const errors = error instanceof ProblemException ? (error.errors ?? []) : [];
    // A malformed citation says which forms are accepted: the model can correct it only with those words.
    const citationForms = errors.some((problem) => problem.reason === NOT_A_CITATION) ? ` In citations, ${CITATION_FORMS_TEXT}.` : '';
    return {
      ok: false,
      refusal: refusal(
        tool.name,
        'invalid_arguments',
        true,
        `Fix or remove the named arguments and call again; the schema lists every allowed argument.${citationForms}`,
        errors.map((problem) => ({ field: problem.field, reason: problem.reason })),
      ),
    };
  }
}
