import { HttpStatus, Type } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ProblemException } from '../http/problem';
import { flatten } from '../http/validation.pipe';
import { memoizeValidationMetadata } from './validation-metadata-cache';

// Model tool arguments and proposal contents are validated per call: each DTO's rules are looked up once.
memoizeValidationMetadata();

/**
 * Validates a plain object against a DTO class with exactly the HTTP pipe's rules (closed: unknown
 * fields refused by name), for input that arrives inside another body or from a model.
 * `field` prefixes the names in the problem (`content.loincCode`).
 */
export async function validateDto<T extends object>(dto: Type<T>, plain: unknown, field?: string): Promise<T> {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    throw new ProblemException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Invalid request', `${field ?? 'The body'} must be an object.`, [
      { field: field ?? '', reason: 'isObject', message: `${field ?? 'body'} must be an object` },
    ]);
  }
  const instance = plainToInstance(dto, plain);
  const errors = await validate(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true });
  if (errors.length > 0) {
    throw new ProblemException(
      HttpStatus.BAD_REQUEST,
      'validation_failed',
      'Invalid request',
      'One or more fields are invalid or not allowed; see `errors`.',
      flatten(errors, field ?? ''),
    );
  }
  return instance;
}
