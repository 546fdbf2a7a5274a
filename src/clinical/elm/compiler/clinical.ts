import { Code, CodeSystem, Concept, CQLValueSet } from 'cql-execution';
import { ElmEvaluationError } from '../elm-errors';
import type { ElmNode } from '../elm.types';
import { isNil } from '../runtime/fhir-value';
import { inExpansion } from '../runtime/terminology';
import { Expansion } from '../runtime/value-sets';
import { Compiler, Handler, LibraryScope, Run, Scope } from './compiler.types';

/**
 * Terminology (CQL §9.12, §22.x): value-set, code-system, code and concept references resolve at
 * compile time to constants; `in` a value set is a lookup in its expansion by system and code.
 */

export function libraryOf(node: ElmNode, scope: Scope): LibraryScope | undefined {
  return typeof node.libraryName === 'string' ? scope.library.include(node.libraryName) : scope.library;
}

/** The value-set reference of an InValueSet/AnyInValueSet, as a static expansion or a runtime one. */
function valueSetOperand(node: ElmNode, scope: Scope, cx: Compiler): ((c: Parameters<Run>[0], f: Parameters<Run>[1]) => Expansion) | undefined {
  const ref = node.valueset as ElmNode | undefined;
  if (ref) {
    const def = libraryOf(ref, scope)?.valueSet(String(ref.name));
    if (!def) return undefined;
    const expansion = cx.expansion(def.url);
    return () => expansion;
  }
  if (!node.valuesetExpression) return undefined;
  const expr = cx.expr(node.valuesetExpression, scope);
  return (c, f) => {
    const value = expr(c, f) as { isValueSet?: boolean; id?: string } | null;
    if (isNil(value) || !value.isValueSet || !value.id) throw new ElmEvaluationError('a value set is required');
    return cx.expansion(value.id);
  };
}

export function codeOf(def: { code: string; system: string; version?: string; display?: string }): Code {
  return new Code(def.code, def.system, def.version, def.display);
}

export const clinicalHandlers: Record<string, Handler> = {
  ValueSetRef: (node, scope, cx) => {
    const def = libraryOf(node, scope)?.valueSet(String(node.name));
    if (!def) return cx.unsupported('ValueSetRef to an unknown value set', scope);
    cx.expansion(def.url);
    const value = new CQLValueSet(def.url, def.version, String(node.name));
    return () => value;
  },
  CodeSystemRef: (node, scope, cx) => {
    const def = libraryOf(node, scope)?.codeSystem(String(node.name));
    if (!def) return cx.unsupported('CodeSystemRef to an unknown code system', scope);
    const value = new CodeSystem(def.id, def.version, String(node.name));
    return () => value;
  },
  CodeRef: (node, scope, cx) => {
    const def = libraryOf(node, scope)?.code(String(node.name));
    if (!def) return cx.unsupported('CodeRef to an unknown code', scope);
    const value = codeOf(def);
    return () => value;
  },
  ConceptRef: (node, scope, cx) => {
    const def = libraryOf(node, scope)?.concept(String(node.name));
    if (!def) return cx.unsupported('ConceptRef to an unknown concept', scope);
    const value = new Concept(def.codes.map(codeOf), def.display);
    return () => value;
  },
  Code: (node, scope, cx) => {
    const systemRef = node.system as ElmNode | undefined;
    const system = systemRef ? libraryOf(systemRef, scope)?.codeSystem(String(systemRef.name)) : undefined;
    if (!system) return cx.unsupported('Code of an unknown code system', scope);
    const value = new Code(String(node.code), system.id, node.version as string | undefined, node.display as string | undefined);
    return () => value;
  },
  Concept: (node, scope, cx) => {
    const codes = ((node.code as ElmNode[] | undefined) ?? []).map((code) => clinicalHandlers.Code(code, scope, cx));
    const display = node.display as string | undefined;
    return (c, f) => new Concept(codes.map((code) => code(c, f) as Code), display);
  },
  InValueSet: (node, scope, cx) => {
    const code = cx.expr(node.code, scope);
    const valueSet = valueSetOperand(node, scope, cx);
    if (!valueSet) return cx.unsupported('InValueSet of an unknown value set', scope);
    return (c, f) => {
      const value = code(c, f);
      return isNil(value) ? false : inExpansion(valueSet(c, f), value);
    };
  },
  AnyInValueSet: (node, scope, cx) => {
    const codes = cx.expr(node.codes, scope);
    const valueSet = valueSetOperand(node, scope, cx);
    if (!valueSet) return cx.unsupported('AnyInValueSet of an unknown value set', scope);
    return (c, f) => {
      const value = codes(c, f);
      if (isNil(value)) return false;
      const expansion = valueSet(c, f);
      return (value as unknown[]).some((item) => inExpansion(expansion, item));
    };
  },
  ExpandValueSet: (node, scope, cx) => {
    const arg = cx.expr(node.operand, scope);
    return (c, f) => {
      const value = arg(c, f) as { isValueSet?: boolean; id?: string } | null;
      if (isNil(value)) return null;
      if (!value.isValueSet || !value.id) throw new ElmEvaluationError('ExpandValueSet of a value that is not a value set');
      const seen = new Set<string>();
      return cx.expansion(value.id).codes.filter((code) => {
        const key = `${code.code}|${code.system}|${code.version}|${code.display}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    };
  },
};
