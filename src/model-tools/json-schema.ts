import { Type } from '@nestjs/common';

/**
 * JSON schema for a DTO class, read from the same `@ApiProperty` metadata that documents the REST
 * API (fields.ts puts validation and documentation in one decorator), so what the model is told and
 * what `validateDto` enforces cannot drift apart. Flat and closed: only the scalar and array shapes
 * the tool DTOs use, and `additionalProperties: false` always.
 */
/** Where @nestjs/swagger keeps property metadata (its `DECORATORS` constants, not exported by the package). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';
const API_MODEL_PROPERTIES_ARRAY = 'swagger/apiModelPropertiesArray';

export interface JsonSchema {
  type?: string;
  description?: string;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  items?: JsonSchema;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  anyOf?: JsonSchema[];
}

interface PropertyMetadata {
  type?: unknown;
  isArray?: boolean;
  required?: boolean;
  description?: string;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  items?: { type?: unknown; pattern?: string; items?: { type?: unknown } };
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
}

/** `String` → `string`; swagger stores constructors for scalar types. */
function scalarName(type: unknown): string | undefined {
  if (typeof type === 'function') return type.name.toLowerCase();
  return typeof type === 'string' ? type : undefined;
}

function propertySchema(meta: PropertyMetadata): JsonSchema {
  const schema: JsonSchema = {};
  if (meta.enum) {
    schema.type = 'string';
    schema.enum = [...meta.enum];
  } else if (meta.isArray || meta.type === 'array') {
    // swagger nests `[String]` one level deeper (items.items) than an explicit `items` option.
    const inner = meta.items?.items ?? meta.items;
    schema.type = 'array';
    schema.items = { type: scalarName(inner?.type) ?? 'string', ...(meta.items?.pattern ? { pattern: meta.items.pattern } : {}) };
  } else {
    schema.type = scalarName(meta.type) ?? 'string';
  }
  if (meta.description) schema.description = meta.description;
  if (meta.format) schema.format = meta.format;
  if (meta.pattern) schema.pattern = meta.pattern;
  if (meta.maxItems !== undefined) schema.maxItems = meta.maxItems;
  if (meta.minLength !== undefined) schema.minLength = meta.minLength;
  if (meta.maxLength !== undefined) schema.maxLength = meta.maxLength;
  return schema;
}

export function jsonSchemaOf(dto: Type<object>): JsonSchema {
  const names = (Reflect.getMetadata(API_MODEL_PROPERTIES_ARRAY, dto.prototype) as string[] | undefined) ?? [];
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const name of names.map((entry) => entry.replace(/^:/, ''))) {
    const meta = (Reflect.getMetadata(API_MODEL_PROPERTIES, dto.prototype, name) ?? {}) as PropertyMetadata;
    properties[name] = propertySchema(meta);
    if (meta.required !== false) required.push(name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}
