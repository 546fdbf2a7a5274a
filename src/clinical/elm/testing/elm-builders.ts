import type { ElmLibrary, ElmNode } from '../elm.types';
import { compileMeasure, CompileOptions } from '../measure/compile-measure';
import { evaluateDefines, EvaluateOptions } from '../measure/evaluate-measure';
import type { FhirResource } from '../runtime/patient-data';
import type { ValueSetResource } from '../runtime/value-sets';

/**
 * For the compiler's specs: ELM nodes written the way the CQL translator writes them, so a test reads
 * like the CQL it stands for (the cqframework cql-tests cases are transcribed with these), and a
 * one-define library to compile and run them.
 */

const SYSTEM = '{urn:hl7-org:elm-types:r1}';

export const bool = (value: boolean): ElmNode => ({ type: 'Literal', valueType: `${SYSTEM}Boolean`, value: String(value) });
export const int = (value: number): ElmNode => ({ type: 'Literal', valueType: `${SYSTEM}Integer`, value: String(value) });
export const dec = (value: number): ElmNode => ({ type: 'Literal', valueType: `${SYSTEM}Decimal`, value: String(value) });
export const str = (value: string): ElmNode => ({ type: 'Literal', valueType: `${SYSTEM}String`, value });
export const nul = (): ElmNode => ({ type: 'Null' });
/** `null as Integer` (the translator casts a null operand to the other operand's type). */
export const nullAs = (name: string): ElmNode => ({ type: 'As', asType: `${SYSTEM}${name}`, operand: nul() });
export const qty = (value: number, unit: string): ElmNode => ({ type: 'Quantity', value, unit });

/** `op(A, B)` for any operator node; extra fields (a precision) merged in. */
export const op = (type: string, operands: ElmNode | ElmNode[], extra: Record<string, unknown> = {}): ElmNode => ({ type, operand: operands, ...extra });

export const list = (...elements: ElmNode[]): ElmNode => ({ type: 'List', element: elements });

/** `Interval[low, high]`, with `(`/`)` as open bounds. */
export const ivl = (low: ElmNode, high: ElmNode, lowClosed = true, highClosed = true): ElmNode => ({ type: 'Interval', low, high, lowClosed, highClosed });

/** `DateTime(y, m, d, h, mi, s, ms)`, as many components as given; `offset` in hours where written. */
export function dt(parts: number[], offset?: number): ElmNode {
  const names = ['year', 'month', 'day', 'hour', 'minute', 'second', 'millisecond'];
  const node: ElmNode = { type: 'DateTime' };
  parts.forEach((value, i) => (node[names[i]] = int(value)));
  if (offset !== undefined) node.timezoneOffset = dec(offset);
  return node;
}

/** `Date(y, m, d)`. */
export function date(parts: number[]): ElmNode {
  const node: ElmNode = { type: 'Date' };
  parts.forEach((value, i) => (node[['year', 'month', 'day'][i]] = int(value)));
  return node;
}

/** `@Thh:mm:ss.fff` as the translator writes a Time. */
export function time(parts: number[]): ElmNode {
  const node: ElmNode = { type: 'Time' };
  parts.forEach((value, i) => (node[['hour', 'minute', 'second', 'millisecond'][i]] = int(value)));
  return node;
}

const PATIENT: FhirResource = { resourceType: 'Patient', id: 'p', birthDate: '1960-05-12' };

/** A library named T with the given defines (and any other library parts). */
export function library(defines: Record<string, ElmNode>, parts: Partial<ElmLibrary['library']> = {}): ElmLibrary {
  return {
    library: {
      identifier: { id: 'T', version: '1' },
      parameters: { def: [{ name: 'Measurement Period' }] },
      ...parts,
      statements: { def: [...(parts.statements?.def ?? []), ...Object.entries(defines).map(([name, expression]) => ({ name, context: 'Patient', expression }))] },
    },
  };
}

export interface RunOptions extends EvaluateOptions, CompileOptions {
  resources?: FhirResource[];
  valueSets?: ValueSetResource[];
  libraries?: ElmLibrary[];
}

/** Compiles the defines as library T and returns each one's value for one patient (the measurement period is 2025). */
export function runDefines(defines: Record<string, ElmNode>, options: RunOptions & { parts?: Partial<ElmLibrary['library']> } = {}): Record<string, unknown> {
  const measure = { resourceType: 'Measure' as const, library: ['Library/T'], group: [] };
  const compiled = compileMeasure(measure, [library(defines, options.parts), ...(options.libraries ?? [])], options.valueSets ?? [], options);
  return evaluateDefines(compiled, Object.keys(defines), options.resources ?? [PATIENT], { start: '2025-01-01', end: '2025-12-31' }, options);
}

/** The value of one expression. */
export function run(expression: ElmNode, options: RunOptions = {}): unknown {
  return runDefines({ X: expression }, options).X;
}
