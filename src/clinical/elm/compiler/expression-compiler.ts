import { ElmEvaluationError, UnsupportedConstruct } from '../elm-errors';
import type { ElmNode } from '../elm.types';
import { Expansion, ValueSetIndex } from '../runtime/value-sets';
import { Compiler, Handler, Hoisted, Run, Scope, UNSET } from './compiler.types';
import { arithmeticHandlers } from './arithmetic';
import { clinicalHandlers } from './clinical';
import { comparisonHandlers } from './comparison';
import { conversionHandlers } from './conversions';
import { dateTimeHandlers } from './date-time';
import { intervalHandlers } from './intervals';
import { listHandlers } from './lists';
import { logicHandlers } from './logic';
import { queryHandlers } from './queries';
import { referenceHandlers } from './references';
import { retrieveHandlers } from './retrieves';
import { stringHandlers } from './strings';
import { structureHandlers } from './structures';

/** Every ELM expression type the compiler implements, by node family. */
export const HANDLERS: Readonly<Record<string, Handler>> = {
  ...logicHandlers,
  ...comparisonHandlers,
  ...arithmeticHandlers,
  ...conversionHandlers,
  ...dateTimeHandlers,
  ...intervalHandlers,
  ...listHandlers,
  ...queryHandlers,
  ...retrieveHandlers,
  ...clinicalHandlers,
  ...referenceHandlers,
  ...structureHandlers,
  ...stringHandlers,
};

/**
 * Turns ELM nodes into closures. An unknown node type, or a known one in a form the compiler does
 * not handle, is recorded with its library and statement and compiled to a closure that throws;
 * the measure compiler refuses the measure when any was recorded, so the placeholder never runs.
 */
export class ExpressionCompiler implements Compiler {
  readonly problems: UnsupportedConstruct[] = [];
  /** Value-set URLs the ELM names that have no expansion (the measure compiler decides what that means). */
  readonly missingValueSets = new Set<string>();
  /** Nodes to compile as a read of a slot computed on first use (`hoist`), by identity. */
  private readonly hoisted = new Map<object, number>();

  constructor(
    readonly valueSets: ValueSetIndex,
    readonly nativeFhirHelpers: boolean,
  ) {}

  expansion(url: string): Expansion {
    const found = this.valueSets.get(url);
    if (found) return found;
    this.missingValueSets.add(url);
    return new Expansion(url, []);
  }

  membershipOf(url: string): string {
    return this.valueSets.get(url)?.membership ?? 'missing';
  }

  expr(node: unknown, scope: Scope): Run {
    if (!node || typeof node !== 'object' || typeof (node as ElmNode).type !== 'string') return this.unsupported('(missing operand)', scope);
    const handler = HANDLERS[(node as ElmNode).type];
    if (!handler) return this.unsupported((node as ElmNode).type, scope);
    const slot = this.hoisted.get(node);
    if (slot === undefined) return handler(node as ElmNode, scope, this);
    this.hoisted.delete(node);
    const run = handler(node as ElmNode, scope, this);
    return (c, f) => {
      const known = f[slot];
      return known !== UNSET ? known : (f[slot] = run(c, f));
    };
  }

  hoist(nodes: readonly object[], scope: Scope): Hoisted {
    const slots: number[] = [];
    const mine: object[] = [];
    for (const node of nodes) {
      // An enclosing query hoisted it already: it is computed once per evaluation of that one, less often.
      if (this.hoisted.has(node)) continue;
      const slot = scope.frame.size++;
      this.hoisted.set(node, slot);
      slots.push(slot);
      mine.push(node);
    }
    return { slots, release: () => mine.forEach((node) => this.hoisted.delete(node)) };
  }

  unsupported(construct: string, scope: Scope): Run {
    const problem = { construct, library: scope.library.name, statement: scope.statement };
    this.problems.push(problem);
    return () => {
      throw new ElmEvaluationError(`unsupported ELM construct ${construct}`, problem);
    };
  }
}
