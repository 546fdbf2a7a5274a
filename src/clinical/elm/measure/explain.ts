import type { ElmLibrary } from '../elm.types';
import { FhirValue } from '../runtime/fhir-value';

/**
 * What explains a population's result: the defines of the main library its criterion reads (itself
 * and, transitively, every define of the same library it references), and the FHIR resources those
 * defines' values hold. A define of an included library (QICoreCommon, Hospice…) is not followed:
 * its values are the measure's own shared logic, not this measure's evidence.
 */

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object';

/** Per library, per define: what `definesReferencedBy` found (a library never changes once compiled). */
const referenced = new WeakMap<ElmLibrary, Map<string, readonly string[]>>();

/** `name` and every define of `library` it references, directly or through another, in first-seen order. */
export function definesReferencedBy(library: ElmLibrary, name: string): readonly string[] {
  let byName = referenced.get(library);
  if (!byName) referenced.set(library, (byName = new Map()));
  let found = byName.get(name);
  if (!found) byName.set(name, (found = walkReferences(library, name)));
  return found;
}

function walkReferences(library: ElmLibrary, name: string): string[] {
  const statements = new Map((library.library.statements?.def ?? []).filter((def) => def.type !== 'FunctionDef').map((def) => [def.name, def]));
  const seen: string[] = [];
  const visit = (define: string) => {
    const statement = statements.get(define);
    if (!statement || seen.includes(define)) return;
    seen.push(define);
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!isObject(node)) return;
      if (node.type === 'ExpressionRef' && node.libraryName === undefined && typeof node.name === 'string') visit(node.name);
      for (const value of Object.values(node)) walk(value);
    };
    walk(statement.expression);
  };
  visit(name);
  return seen;
}

/** A FHIR resource a define's value holds: its type and id. */
export interface ResourceRef {
  resourceType: string;
  id: string;
}

/** Every resource (with an id) in a define's value: a resource, a list of them, or lists within lists; each once. */
export function resourcesIn(value: unknown): ResourceRef[] {
  const found = new Map<string, ResourceRef>();
  const walk = (item: unknown): void => {
    if (Array.isArray(item)) return item.forEach(walk);
    if (!(item instanceof FhirValue)) return;
    const { resourceType, id } = item.json as { resourceType?: unknown; id?: unknown };
    if (typeof resourceType === 'string' && typeof id === 'string') found.set(`${resourceType}/${id}`, { resourceType, id });
  };
  walk(value);
  return [...found.values()];
}
