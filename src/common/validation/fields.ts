import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsIn, IsInt, IsOptional, Matches, Max, Min, registerDecorator, ValidationArguments } from 'class-validator';

/**
 * One decorator per field carries validation and OpenAPI together, so the documented schema, the
 * HTTP validation and (later) the JSON schema a model sees cannot drift apart.
 */

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const EARLIEST = '1900-01-01';
const LATEST = '2100-12-31';

/** A calendar date `YYYY-MM-DD` that exists, between 1900 and 2100. */
export function DateOnlyField(description: string, example = '2026-06-30'): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, format: 'date', maxLength: 10, description, example }),
    IsOptional(),
    Matches(DATE_ONLY, { message: '$property must be a date as YYYY-MM-DD' }),
    IsExistingDate(),
  );
}

/** `YYYY-MM-DD` naming a day the calendar has (not `2026-02-30`, not `2026-13-45`). */
export function isCalendarDate(value: string): boolean {
  if (!DATE_ONLY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

function IsExistingDate(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isExistingDate',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => typeof value === 'string' && isCalendarDate(value) && value >= EARLIEST && value <= LATEST,
        defaultMessage: (args?: ValidationArguments) => `${args?.property} must be an existing date between ${EARLIEST} and ${LATEST}`,
      },
    });
}

/** `from` must not be after `to` (both optional). Put it on the `to` field. */
export function NotBefore(otherField: string): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'notBefore',
      target: target.constructor,
      propertyName: propertyName as string,
      constraints: [otherField],
      validator: {
        validate: (value: unknown, args: ValidationArguments) => {
          const other = (args.object as Record<string, unknown>)[otherField];
          return typeof value !== 'string' || typeof other !== 'string' || other <= value;
        },
        defaultMessage: (args?: ValidationArguments) => `${args?.property} must not be before ${otherField}`,
      },
    });
}

/** A closed list of allowed values, optional. */
export function OneOfField(values: readonly string[], description: string): PropertyDecorator {
  return applyDecorators(ApiPropertyOptional({ enum: values, description }), IsOptional(), IsIn(values as string[]));
}

/**
 * A bounded list of codes, each matching `pattern`; accepts repeated parameters (`?code=a&code=b`)
 * or one comma-separated value (`?code=a,b`).
 */
export function CodeListField(options: {
  pattern: RegExp;
  max: number;
  /** The longest code `pattern` matches (declared in the OpenAPI document). */
  maxLength: number;
  description: string;
  example: string[];
  itemName: string;
}): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'array',
      description: `${options.description} At most ${options.max}; repeat the parameter or separate with commas.`,
      example: options.example,
      maxItems: options.max,
      items: { type: 'string', pattern: options.pattern.source, maxLength: options.maxLength },
    }),
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.split(',').map((item) => item.trim()) : value)),
    IsOptional(),
    ArrayMinSize(1),
    ArrayMaxSize(options.max),
    Matches(options.pattern, { each: true, message: `each value of $property must be a ${options.itemName}` }),
  );
}

/** A decimal integer as a person writes it: no sign, no leading zeros, no spaces, hex, exponent or fraction. */
const DECIMAL_INTEGER = /^(0|[1-9][0-9]{0,8})$/;

/**
 * An optional integer query parameter. `Number()` would read `0x10`, `1e1`, ` 10` and `10.0` as
 * numbers; only plain decimal digits become a number here, anything else stays a string and fails
 * `isInt` by name.
 */
export function IntegerQueryField(options: { min: number; max: number; default?: number; description: string }): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: Number, minimum: options.min, maximum: options.max, default: options.default, description: options.description }),
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' && DECIMAL_INTEGER.test(value) ? Number(value) : value)),
    IsOptional(),
    IsInt(),
    Min(options.min),
    Max(options.max),
  );
}
