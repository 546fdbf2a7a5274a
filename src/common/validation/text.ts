import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length, registerDecorator, ValidationArguments } from 'class-validator';

/**
 * What free text may hold. NUL cannot be stored in a Postgres `text` or `jsonb` value (the driver
 * fails with 22021/22P05, a 500), and a lone UTF-16 surrogate is silently turned into U+FFFD on the
 * way to the database, so the stored text would differ from what was validated and hashed. Both are
 * refused here, once, for every field a caller or a model may fill with free text.
 */
// eslint-disable-next-line no-control-regex
const NUL = /\u0000/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** C0 and C1 control characters and DEL: nothing a one-line value (a header, a name) may contain. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

export function isStorableText(value: string): boolean {
  return !NUL.test(value) && !LONE_SURROGATE.test(value);
}

/** Text made storable by removing what `isStorableText` refuses (for text Vigil keeps rather than refuses, e.g. a model's statement). */
export function storableText(value: string): string {
  return value.replace(new RegExp(NUL.source, 'g'), '').replace(new RegExp(LONE_SURROGATE.source, 'g'), '');
}

/** Storable, and no control character at all (C0, DEL, C1 such as U+0085 NEL or U+009B CSI). */
export function isSingleLineText(value: string): boolean {
  return isStorableText(value) && !CONTROL_CHARACTER.test(value);
}

function IsStorableText(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isStorableText',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || isStorableText(value),
        defaultMessage: (args?: ValidationArguments) => `${args?.property} must not contain NUL characters or unpaired surrogates`,
      },
    });
}

interface FreeTextOptions {
  min: number;
  max: number;
  description?: string;
  example?: string;
}

/** A required free-text field: a string of `min`–`max` characters that Postgres can store as sent. */
export function FreeTextField({ min, max, description, example }: FreeTextOptions): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: String, minLength: min, maxLength: max, description, example }),
    IsString(),
    Length(min, max),
    IsStorableText(),
  );
}

/** The same, optional. */
export function OptionalFreeTextField({ min, max, description, example }: FreeTextOptions): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, minLength: min, maxLength: max, description, example }),
    IsOptional(),
    IsString(),
    Length(min, max),
    IsStorableText(),
  );
}
