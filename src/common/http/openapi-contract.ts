import type { OpenAPIObject } from '@nestjs/swagger';
import { PROBLEM_CONTENT_TYPE } from './problem';
import { readsBody } from './request-body';

type Schema = Record<string, unknown>;
type Responses = Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
type Operation = { responses: Responses; requestBody?: { content?: Record<string, { schema?: Schema }> } };

const PROBLEM_REF = '#/components/schemas/ProblemDto';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const problem = (description: string) => ({ description, content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: PROBLEM_REF } } } });

/**
 * Makes the generated document say what the service does, in one place rather than on every route:
 * - every `ProblemDto` response is `application/problem+json`, as the filter sends it;
 * - the refusals of the HTTP edges (`src/common/http/http-edges.ts`) are declared on every operation
 *   they can reach: 400 (a prototype key in the query), 408 and 431 everywhere; 413 and 415 on every
 *   operation whose method has its body read (`readsBody`), whether or not it declares one, since
 *   the edge refuses a bad body before the route decides it wants none;
 * - request body schemas are closed (`additionalProperties: false`), as the validation pipe is.
 * (A 405 is the answer to a method a path does not have, and a 501 to a method Node does not know,
 * so they belong to no operation: see the document's description.)
 */
export function asContract(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const closed = new Set<Schema>();
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (!operation) continue;
      for (const response of Object.values(operation.responses)) {
        const json = response.content?.['application/json'];
        if (json?.schema?.$ref === PROBLEM_REF) response.content = { [PROBLEM_CONTENT_TYPE]: json };
      }
      operation.responses['400'] ??= problem('Invalid or unknown parameters (problem details).');
      operation.responses['408'] ??= problem('The request was not received in full within the server time limit.');
      operation.responses['431'] ??= problem('Request headers over the server limit (16 KB).');
      if (readsBody(method)) {
        operation.responses['413'] ??= problem('Body over 100 kB (after decompression).');
        operation.responses['415'] ??= problem('Body not `application/json` (or `application/fhir+json`), not UTF-8, or in an unsupported content encoding.');
      }
      for (const media of Object.values(operation.requestBody?.content ?? {})) close(media.schema, schemas, closed);
    }
  }
  return document;
}

/** Closes a request schema and every object schema it reaches (properties, items, `oneOf`, `$ref`). */
function close(schema: Schema | undefined, schemas: Record<string, Schema>, seen: Set<Schema>): void {
  if (!schema || seen.has(schema)) return;
  seen.add(schema);
  if (typeof schema.$ref === 'string') return close(schemas[schema.$ref.replace('#/components/schemas/', '')], schemas, seen);
  if (schema.properties && schema.additionalProperties === undefined) schema.additionalProperties = false;
  for (const child of Object.values((schema.properties ?? {}) as Record<string, Schema>)) close(child, schemas, seen);
  close(schema.items as Schema | undefined, schemas, seen);
  for (const key of ['oneOf', 'anyOf', 'allOf']) for (const child of (schema[key] ?? []) as Schema[]) close(child, schemas, seen);
}
