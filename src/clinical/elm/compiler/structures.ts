import { Code, Concept, Quantity } from 'cql-execution';
import { FhirValue } from '../runtime/fhir-value';
import { getProperty } from '../runtime/property';
import { Handler, Run } from './compiler.types';

/**
 * Structured values (CQL §2, §9.11): property paths, tuples, and instances (a System Quantity, Code
 * or Concept becomes the CQL value; any other class, FHIR included, a tuple, as the reference engine
 * builds it).
 */

export const structureHandlers: Record<string, Handler> = {
  Property: (node, scope, cx) => {
    const path = String(node.path);
    let source: Run;
    if (typeof node.scope === 'string') {
      const slot = scope.slotOf(node.scope);
      if (slot === undefined) return cx.unsupported('Property of an unknown alias', scope);
      source = (_c, f) => f[slot];
    } else if (node.source === undefined) {
      // The translator sometimes drops a property's alias (CMS347 2024: `code in "Low Intensity Statin
      // Therapy"` inside a with clause); the reference engine reads such a property as null, and so does this.
      return () => null;
    } else {
      source = cx.expr(node.source, scope);
    }
    if (!path.includes('.')) {
      return (c, f) => {
        const obj = source(c, f);
        if (obj instanceof FhirValue) return obj.get(path);
        return getProperty(obj, path);
      };
    }
    return (c, f) => getProperty(source(c, f), path);
  },
  Tuple: (node, scope, cx) => {
    const elements = ((node.element as { name: string; value?: unknown }[] | undefined) ?? []).map((e) => ({ name: e.name, value: e.value ? cx.expr(e.value, scope) : undefined }));
    return (c, f) => {
      const tuple: Record<string, unknown> = {};
      for (const e of elements) tuple[e.name] = e.value ? e.value(c, f) : undefined;
      return tuple;
    };
  },
  Instance: (node, scope, cx) => {
    const elements = ((node.element as { name: string; value?: unknown }[] | undefined) ?? []).map((e) => ({ name: e.name, value: e.value ? cx.expr(e.value, scope) : undefined }));
    const classType = String(node.classType);
    return (c, f) => {
      const obj: Record<string, unknown> = {};
      for (const e of elements) obj[e.name] = e.value ? e.value(c, f) : undefined;
      switch (classType) {
        case '{urn:hl7-org:elm-types:r1}Quantity':
          return new Quantity(obj.value as number, obj.unit as string);
        case '{urn:hl7-org:elm-types:r1}Code':
          return new Code(obj.code as string, obj.system as string, obj.version as string, obj.display as string);
        case '{urn:hl7-org:elm-types:r1}Concept':
          return new Concept(obj.codes as Code[], obj.display as string);
        default:
          return obj;
      }
    };
  },
};
