import type { ElmNode } from '../elm.types';

/**
 * Loop-invariant operands of a query (CQL §5): the parts of its `let`, `with`/`without` (source and
 * `such that`), `where` and `return` clauses that read none of the names the query binds (its
 * aliases, lets and relationship aliases), nor a name a query nested in those clauses binds on the
 * way to them. Such an operand — `end of "Measurement Period" - 27 months`, a literal interval, a
 * `with` source query over other data — has one value for the whole query evaluation, so the
 * query computes it once, on first use (queries.ts), instead of once per row. First use keeps
 * laziness: an operand an `and` never reaches is still never evaluated, and an error comes where
 * it came before. Only the largest such parts are returned; cheap leaves (literals, references to
 * memoised defines and parameters) are not worth a slot.
 */

/** What an operand reads of the names around it. */
interface Reads {
  names: Set<string>;
  /** Reads something the analysis cannot name (an IdentifierRef outside a sort): never hoisted. */
  opaque: boolean;
}

/** Fields that hold types and metadata, never an operand. */
const NOT_OPERANDS = new Set(['resultTypeSpecifier', 'resultTypeName', 'signature', 'annotation', 'locator', 'localId', 'asTypeSpecifier', 'isTypeSpecifier', 'operandTypeSpecifier']);

/** Operands whose value costs no more to recompute than to read from a slot. */
const CHEAP = new Set(['Literal', 'Null', 'ParameterRef', 'ExpressionRef', 'ValueSetRef', 'CodeRef', 'CodeSystemRef', 'ConceptRef', 'OperandRef', 'Quantity', 'AliasRef', 'QueryLetRef', 'IdentifierRef']);

const isNode = (value: unknown): value is ElmNode => typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as ElmNode).type === 'string';

/** The names a query binds for its clauses: source aliases, lets, relationship aliases, the aggregate’s accumulator. */
export function boundNames(query: ElmNode): string[] {
  const names: string[] = [];
  for (const source of (query.source as { alias?: string }[] | undefined) ?? []) if (source.alias) names.push(source.alias);
  for (const item of (query.let as { identifier?: string }[] | undefined) ?? []) if (item.identifier) names.push(item.identifier);
  for (const relationship of (query.relationship as { alias?: string }[] | undefined) ?? []) if (relationship.alias) names.push(relationship.alias);
  const aggregate = query.aggregate as { identifier?: string } | undefined;
  if (aggregate?.identifier) names.push(aggregate.identifier);
  return names;
}

class ReadsOf {
  private readonly known = new Map<object, Reads>();

  /** The names a subtree reads and does not bind itself. In a sort, IdentifierRef names a field of the sorted row. */
  of(value: unknown, inSort = false): Reads {
    if (typeof value !== 'object' || value === null) return { names: new Set(), opaque: false };
    const cached = this.known.get(value);
    if (cached) return cached;
    const reads: Reads = { names: new Set(), opaque: false };
    const node = value as ElmNode;
    if (node.type === 'AliasRef' || node.type === 'QueryLetRef') reads.names.add(String(node.name));
    if (node.type === 'IdentifierRef' && !inSort) reads.opaque = true;
    if (node.type === 'Property' && typeof node.scope === 'string') reads.names.add(node.scope);
    const isQuery = node.type === 'Query';
    const add = (inner: Reads) => {
      for (const name of inner.names) reads.names.add(name);
      reads.opaque ||= inner.opaque;
    };
    for (const [key, child] of Object.entries(value)) {
      // A query’s sources (and an aggregate’s start) are evaluated outside the names it binds: what they read is read.
      if (NOT_OPERANDS.has(key) || typeof child !== 'object' || child === null || (isQuery && (key === 'source' || key === 'aggregate'))) continue;
      add(this.of(child, inSort || (isQuery && key === 'sort')));
    }
    if (isQuery) {
      for (const name of boundNames(node)) reads.names.delete(name);
      for (const source of (node.source as { expression?: unknown }[] | undefined) ?? []) add(this.of(source.expression, inSort));
      const aggregate = node.aggregate as { expression?: unknown; starting?: unknown } | undefined;
      if (aggregate) {
        const step = this.of(aggregate.expression, inSort);
        add({ names: new Set([...step.names].filter((name) => !boundNames(node).includes(name))), opaque: step.opaque });
        add(this.of(aggregate.starting, inSort));
      }
    }
    this.known.set(value, reads);
    return reads;
  }
}

/** The clauses of a query evaluated once per row (its sources and sort are not). */
function perRowClauses(query: ElmNode): unknown[] {
  const clauses: unknown[] = [];
  for (const item of (query.let as { expression?: unknown }[] | undefined) ?? []) clauses.push(item.expression);
  for (const relationship of (query.relationship as { expression?: unknown; suchThat?: unknown }[] | undefined) ?? []) clauses.push(relationship.expression, relationship.suchThat);
  clauses.push(query.where, (query.return as { expression?: unknown } | undefined)?.expression);
  return clauses;
}

/** The largest operands in a query’s per-row clauses that read no name bound by the query or between it and them. */
export function invariantOperands(query: ElmNode): ElmNode[] {
  const reads = new ReadsOf();
  const found: ElmNode[] = [];
  const visit = (value: unknown, variant: ReadonlySet<string>) => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item, variant);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    if (isNode(value) && !CHEAP.has(value.type)) {
      const r = reads.of(value);
      if (!r.opaque && ![...r.names].some((name) => variant.has(name))) {
        found.push(value);
        return;
      }
    }
    const node = value as ElmNode;
    const isQuery = node.type === 'Query';
    const inner = isQuery ? new Set([...variant, ...boundNames(node)]) : variant;
    for (const [key, child] of Object.entries(value)) {
      // A nested query’s sort reads its rows: nothing in it is hoisted.
      if (NOT_OPERANDS.has(key) || (isQuery && key === 'sort')) continue;
      visit(child, inner);
    }
  };
  const variant = new Set(boundNames(query));
  for (const clause of perRowClauses(query)) visit(clause, variant);
  return found;
}
