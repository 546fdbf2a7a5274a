import { ApiParam } from '@nestjs/swagger';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** A path parameter parsed with ParseUUIDPipe, documented as what it accepts (a UUID, so at most 36 characters). */
export const ApiUuidParam = (name: string): MethodDecorator & ClassDecorator =>
  ApiParam({ name, schema: { type: 'string', format: 'uuid', maxLength: 36 } });
