import { ElmEvaluationError } from '../elm-errors';
import type { ElmNode } from '../elm.types';
import { FhirValue, isNil } from '../runtime/fhir-value';
import { distinct } from '../runtime/lists';
import { Compiler, EvalContext, Frame, Handler, Run, Scope, UNSET } from './compiler.types';
import { invariantOperands } from './hoisting';

/**
 * Queries (CQL §5): sources (several make a cartesian product), lets, `with`/`without`, `where`,
 * `return`, `aggregate` and `sort`, with the reference engine's rules: a query over only null
 * sources is null; results are distinct unless `return all` (or an aggregate) says otherwise; a
 * single-alias query without `return` yields its items, otherwise rows of every alias and let; the
 * sort is cql-execution's stable merge sort with its comparator, so ties order as they do there.
 */

interface Named {
  slot: number;
  name: string;
  expr: Run;
}

interface Relationship {
  without: boolean;
  expr: Run;
  slot: number;
  suchThat: Run;
}

type Compare = (c: EvalContext, f: Frame, a: unknown, b: unknown) => number;

const below = (a: unknown, b: unknown) => (a as number) < (b as number);

function directionOrder(direction: unknown): [number, number] {
  const low = direction === 'asc' || direction === 'ascending' ? -1 : 1;
  return [low, -low];
}

function compileSort(node: ElmNode, scope: Scope, cx: Compiler): Compare | undefined {
  const by = (node.sort as { by?: ElmNode[] } | undefined)?.by;
  if (!by || by.length === 0) return undefined;
  const items = by.map((item): Compare => {
    const [low, high] = directionOrder(item.direction);
    if (item.type === 'ByDirection') {
      return (_c, _f, a, b) => {
        if (a === b) return 0;
        if (isNil(a) || isNil(b)) throw new ElmEvaluationError('sort of a list with nulls');
        if ((a as { isQuantity?: boolean }).isQuantity && (b as { isQuantity?: boolean }).isQuantity) return (a as { before(o: unknown): boolean }).before(b) ? low : high;
        return below(a, b) ? low : high;
      };
    }
    if (item.type !== 'ByExpression' && item.type !== 'ByColumn') {
      cx.unsupported(`sort ${item.type}`, scope);
      return () => 0;
    }
    // Sort expressions see the row being sorted (its fields by name, itself as $this), not the query's aliases.
    const rowScope = scope.child(scope.frame.size++);
    const row = rowScope.sortRow!;
    const expr = item.type === 'ByColumn' ? cx.expr({ type: 'IdentifierRef', name: item.path }, rowScope) : cx.expr(item.expression, rowScope);
    return (c, f, a, b) => {
      f[row] = a;
      const x = expr(c, f);
      f[row] = b;
      const y = expr(c, f);
      if (x === y || (isNil(x) && isNil(y))) return 0;
      if (isNil(x) || isNil(y)) return isNil(x) ? low : high;
      if ((x as { isQuantity?: boolean }).isQuantity && (y as { isQuantity?: boolean }).isQuantity) return (x as { before(o: unknown): boolean }).before(y) ? low : high;
      return below(x, y) ? low : high;
    };
  });
  return (c, f, a, b) => {
    let order = 0;
    for (const item of items) {
      order = item(c, f, a, b);
      if (order !== 0) break;
    }
    return order;
  };
}

/** cql-execution's merge sort (stable; `<= 0` keeps the left item). */
function mergeSort(list: unknown[], compare: (a: unknown, b: unknown) => number): unknown[] {
  if (list.length <= 1) return list;
  const mid = Math.floor(list.length / 2);
  const left = mergeSort(list.slice(0, mid), compare);
  const right = mergeSort(list.slice(mid), compare);
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) out.push(compare(left[i], right[j]) <= 0 ? left[i++] : right[j++]);
  while (i < left.length) out.push(left[i++]);
  while (j < right.length) out.push(right[j++]);
  return out;
}

export const queryHandlers: Record<string, Handler> = {
  Query: (node, scope, cx) => {
    const qs = scope.child();
    const sourceNodes = (node.source as { alias: string; expression: unknown }[] | undefined) ?? [];
    if (sourceNodes.length === 0) return cx.unsupported('Query without a source', scope);
    const sources: Named[] = sourceNodes.map((s) => ({ expr: cx.expr(s.expression, scope), slot: qs.declare(s.alias), name: s.alias }));
    // Operands of the per-row clauses that read no row: computed once per evaluation, on first use (hoisting.ts).
    const hoisted = cx.hoist(invariantOperands(node), qs);
    const lets: Named[] = ((node.let as { identifier: string; expression: unknown }[] | undefined) ?? []).map((l) => {
      const expr = cx.expr(l.expression, qs);
      return { expr, slot: qs.declare(l.identifier), name: l.identifier };
    });
    const relationships: Relationship[] = ((node.relationship as ElmNode[] | undefined) ?? []).map((r) => {
      if (r.type !== 'With' && r.type !== 'Without') cx.unsupported(`relationship ${r.type}`, scope);
      const rs = qs.child();
      const expr = cx.expr(r.expression, qs);
      const slot = rs.declare(String(r.alias));
      return { without: r.type === 'Without', expr, slot, suchThat: cx.expr(r.suchThat, rs) };
    });
    const where = node.where ? cx.expr(node.where, qs) : undefined;
    const ret = node.return as { expression: unknown; distinct?: boolean } | undefined;
    const returnExpr = ret ? cx.expr(ret.expression, qs) : undefined;
    const agg = node.aggregate as { identifier: string; expression: unknown; starting?: unknown; distinct?: boolean } | undefined;
    let aggregate: { slot: number; expr: Run; starting: Run | undefined } | undefined;
    if (agg) {
      const as = qs.child();
      const slot = as.declare(agg.identifier);
      aggregate = { slot, expr: cx.expr(agg.expression, as), starting: agg.starting ? cx.expr(agg.starting, scope) : undefined };
    }
    hoisted.release();
    const isDistinct = agg ? agg.distinct === true : ret ? ret.distinct !== false : true;
    const sort = compileSort(node, scope, cx);
    const rowsAreItems = sources.length === 1 && !aggregate;
    const bound = [...sources, ...lets];

    /** One combination of source items, already in their slots: lets, relationships, where, then the row. */
    const visit = (c: EvalContext, f: Frame, out: unknown[]) => {
      for (const l of lets) f[l.slot] = l.expr(c, f);
      let passed = true;
      for (const r of relationships) {
        let records = r.expr(c, f);
        if (!Array.isArray(records)) records = [records];
        let any = false;
        for (const record of records as unknown[]) {
          f[r.slot] = record;
          if (r.suchThat(c, f)) {
            any = true;
            break;
          }
        }
        if (any === r.without) passed = false;
      }
      if (!passed || (where && !where(c, f))) return;
      if (returnExpr) out.push(returnExpr(c, f));
      else if (rowsAreItems) out.push(f[sources[0].slot]);
      else {
        const row: Record<string, unknown> = {};
        for (const b of bound) row[b.name] = f[b.slot];
        out.push(row);
      }
    };

    /** The rows of a one-source query (most of them): no per-run arrays of sources or closures. */
    const oneSource = (c: EvalContext, f: Frame, value: unknown, out: unknown[]) => {
      const slot = sources[0].slot;
      if (!Array.isArray(value)) {
        f[slot] = value;
        return visit(c, f, out);
      }
      for (const item of value) {
        f[slot] = item;
        visit(c, f, out);
      }
    };

    return (c, f) => {
      for (const slot of hoisted.slots) f[slot] = UNSET;
      let out: unknown[] = [];
      let isList: boolean;
      if (sources.length === 1) {
        const value = sources[0].expr(c, f);
        if (isNil(value)) return null;
        isList = Array.isArray(value);
        oneSource(c, f, value, out);
      } else {
        const values = sources.map((s) => s.expr(c, f));
        if (values.every(isNil)) return null;
        isList = values.some(Array.isArray);
        const lists = values.map((v) => (isNil(v) ? [] : Array.isArray(v) ? v : [v])) as unknown[][];
        const product = (i: number) => {
          if (i === sources.length) return visit(c, f, out);
          for (const item of lists[i]) {
            f[sources[i].slot] = item;
            product(i + 1);
          }
        };
        product(0);
      }
      // A list of one or none is its own distinct list (and `out` is this run's own).
      if (isDistinct && out.length > 1) out = distinct(out);
      if (aggregate) {
        let acc = aggregate.starting ? aggregate.starting(c, f) : null;
        for (const row of out as Record<string, unknown>[]) {
          for (const b of bound) f[b.slot] = row[b.name];
          f[aggregate.slot] = acc;
          acc = aggregate.expr(c, f);
        }
        return acc;
      }
      if (sort) out = mergeSort(out, (a, b) => sort(c, f, a, b));
      return isList ? out : (out[0] ?? null);
    };
  },
  AliasRef: (node, scope, cx) => slotRead(String(node.name), scope, cx, 'AliasRef'),
  QueryLetRef: (node, scope, cx) => slotRead(String(node.name), scope, cx, 'QueryLetRef'),
  OperandRef: (node, scope, cx) => slotRead(String(node.name), scope, cx, 'OperandRef'),
  IdentifierRef: (node, scope, cx) => {
    const name = String(node.name);
    if (scope.sortRow !== undefined) {
      const row = scope.sortRow;
      if (name === '$this') return (_c, f) => f[row];
      return (_c, f) => rowField(f[row], name);
    }
    return slotRead(name, scope, cx, 'IdentifierRef');
  },
};

function slotRead(name: string, scope: Scope, cx: Compiler, kind: string): Run {
  const slot = scope.slotOf(name);
  if (slot === undefined) return cx.unsupported(`${kind} to an unknown name`, scope);
  return (_c, f) => f[slot] ?? null;
}

/** A sorted row's field (cql-execution reads it from the row as its context values). */
function rowField(row: unknown, name: string): unknown {
  if (isNil(row)) return null;
  if (row instanceof FhirValue) return row.get(name);
  if (typeof row === 'object') return (row as Record<string, unknown>)[name] ?? null;
  return null;
}
