import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';

const BY_VALUE_ONLY = Symbol('vigil.queryValidatedByValueOnly');
/** Distinct raw queries kept per DTO class; when full the class's memo starts again (an unbounded map would be a memory lever for a caller). */
export const QUERY_MEMO_SIZE = 256;

type Scalar = string | number | boolean | null | undefined;
type Constructor = abstract new (...args: never[]) => unknown;

/**
 * Marks a query DTO class whose validation depends only on the query's values: no rule reads the
 * clock, configuration or anything else that may change (a rule such as "not before today" must
 * never carry it). Its own class only: a subclass is not marked by inheritance, since it may add
 * such a rule.
 */
export function ValidatedByValueOnly(): ClassDecorator {
  return (target) => Reflect.defineMetadata(BY_VALUE_ONLY, true, target);
}

function byValueOnly(metatype: unknown): metatype is Constructor {
  return typeof metatype === 'function' && Reflect.getOwnMetadata(BY_VALUE_ONLY, metatype) === true;
}

/** The memo key of a raw query: only for one of plain strings and lists of strings (what the query parser gives). */
function keyOf(value: unknown): string | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  for (const item of Object.values(value)) {
    if (typeof item === 'string') continue;
    if (Array.isArray(item) && item.every((element) => typeof element === 'string')) continue;
    return null;
  }
  return JSON.stringify(value);
}

function isScalar(value: unknown): value is Scalar {
  return value === null || value === undefined || ['string', 'number', 'boolean'].includes(typeof value);
}

/** A fresh copy of a validated DTO (same class, own fields, lists copied), or null when it holds anything but scalars and lists of scalars. */
function copyOf<T extends object>(instance: T): T | null {
  const copy = Object.create(Object.getPrototypeOf(instance) as object) as Record<string, unknown>;
  for (const [name, value] of Object.entries(instance)) {
    if (name === '__proto__') return null;
    if (isScalar(value)) copy[name] = value;
    else if (Array.isArray(value) && value.every(isScalar)) copy[name] = [...value];
    else return null;
  }
  return copy as T;
}

/**
 * The validation pipe, with the outcome of a valid query kept per DTO class marked
 * `ValidatedByValueOnly`: a tool's query is one of a few shapes (`?code=2160-0`, none), and
 * class-transformer with class-validator cost tens of microseconds of the event loop per request
 * to find the same answer again. A query seen before gets a fresh copy of its validated DTO, so
 * what a handler does to it never reaches the next request. Refusals are not kept: they go the
 * whole way each time, and their problems are built as always.
 */
export class QueryMemoValidationPipe extends ValidationPipe {
  private readonly memo = new Map<Constructor, Map<string, object>>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const metatype = metadata.metatype;
    // The whole query only (`@Query()`, not `@Query('name')`): the key is the raw query as parsed.
    const key = metadata.type === 'query' && metadata.data === undefined && byValueOnly(metatype) ? keyOf(value) : null;
    if (key === null || !metatype) return super.transform(value, metadata);
    let memo = this.memo.get(metatype);
    const known = memo?.get(key);
    if (known) return copyOf(known);
    const result: unknown = await super.transform(value, metadata);
    const kept = result && typeof result === 'object' ? copyOf(result) : null;
    if (kept) {
      if (!memo || memo.size >= QUERY_MEMO_SIZE) this.memo.set(metatype, (memo = new Map()));
      memo.set(key, kept);
    }
    return result;
  }
}
