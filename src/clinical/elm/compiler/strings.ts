import { isNil } from '../runtime/fhir-value';
import { Handler, Run, operands } from './compiler.types';

/** Strings (CQL §9.13), as cql-execution computes them; any null operand gives null. */

function strings(fn: (...args: string[]) => unknown): Handler {
  return (node, scope, cx) => {
    const args = operands(node).map((o) => cx.expr(o, scope));
    return (c, f) => {
      const values = args.map((a) => a(c, f));
      return values.some(isNil) ? null : (fn(...(values as string[])) ?? null);
    };
  };
}

export const stringHandlers: Record<string, Handler> = {
  Concatenate: strings((...parts) => parts.join('')),
  Upper: strings((s) => s.toUpperCase()),
  Lower: strings((s) => s.toLowerCase()),
  StartsWith: strings((s, prefix) => s.slice(0, prefix.length) === prefix),
  EndsWith: strings((s, suffix) => suffix === '' || s.slice(-suffix.length) === suffix),
  Matches: strings((s, pattern) => new RegExp(`^${pattern}$`).test(s)),
  ReplaceMatches: strings((s, pattern, replacement) => s.replace(new RegExp(pattern, 'g'), replacement.replace(/\\\$/g, '$$'))),
  Split: (node, scope, cx) => {
    const text = cx.expr(node.stringToSplit, scope);
    const separator = cx.expr(node.separator, scope);
    return (c, f) => {
      const s = text(c, f) as string | null;
      const sep = separator(c, f) as string | null;
      if (s && sep) return s.split(sep);
      return s ? [s] : null;
    };
  },
  Combine: (node, scope, cx) => {
    const source = cx.expr(node.source, scope);
    const separator: Run = node.separator ? cx.expr(node.separator, scope) : () => '';
    return (c, f) => {
      const list = source(c, f) as unknown[] | null;
      if (isNil(list)) return null;
      const items = list.filter((x) => !isNil(x));
      return items.length === 0 ? null : items.join(String(separator(c, f) ?? ''));
    };
  },
  Length: (node, scope, cx) => {
    const arg = cx.expr(node.operand, scope);
    const listTyped = (node.operand as { resultTypeSpecifier?: { type?: string } } | undefined)?.resultTypeSpecifier?.type === 'ListTypeSpecifier';
    return (c, f) => {
      const value = arg(c, f) as string | unknown[] | null;
      if (!isNil(value)) return value.length;
      return listTyped ? 0 : null;
    };
  },
};
