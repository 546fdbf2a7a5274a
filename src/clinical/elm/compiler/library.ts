import { createHash } from 'node:crypto';
import { ElmEvaluationError } from '../elm-errors';
import type { ElmLibrary, ElmStatement } from '../elm.types';
import { CompiledFunction, Compiler, EvalContext, LibraryScope, Run, Scope, UNSET } from './compiler.types';

/**
 * One library of a measure, compiled lazily: a define or function is compiled when something first
 * references it (the measure's populations, transitively), so an unused function of a shared
 * library never blocks a measure. Each define owns a memo slot of the patient's evaluation, and its
 * value is also kept by the library's content for the other measures evaluated for the patient.
 */

export const MEASUREMENT_PERIOD = 'Measurement Period';

/** Shared by the libraries of one measure: where defines get their memo slots, how includes resolve. */
export interface LibrarySet {
  compiler: Compiler;
  allocateSlot(): number;
  resolve(name: string, version: string | undefined): CompiledLibrary | undefined;
}

export class CompiledLibrary implements LibraryScope {
  readonly name: string;
  readonly version: string | undefined;
  readonly isFhirHelpers: boolean;
  private readonly statements = new Map<string, ElmStatement[]>();
  private readonly defines = new Map<string, Run>();
  private readonly functionsByName = new Map<string, CompiledFunction[]>();
  private readonly parameters = new Map<string, Run>();
  private key: string | undefined;

  constructor(
    readonly elm: ElmLibrary,
    private readonly set: LibrarySet,
  ) {
    this.name = elm.library.identifier.id;
    this.version = elm.library.identifier.version;
    this.isFhirHelpers = this.name === 'FHIRHelpers';
    for (const statement of elm.library.statements?.def ?? []) {
      const list = this.statements.get(statement.name) ?? [];
      list.push(statement);
      this.statements.set(statement.name, list);
    }
  }

  /**
   * A digest of all a define's value depends on besides the patient, `Now()` and the period: this
   * library's ELM, the expansions of its value sets, the same of every library it includes, and how
   * FHIRHelpers runs. Two measures' copies of a library with the same key compute the same values.
   */
  contentKey(): string {
    if (this.key === undefined) {
      const includes = (this.elm.library.includes?.def ?? []).map((def) => this.include(def.localIdentifier)?.contentKey() ?? 'missing');
      const valueSets = (this.elm.library.valueSets?.def ?? []).map((def) => this.set.compiler.membershipOf(def.id));
      this.key = createHash('sha256').update(JSON.stringify([this.set.compiler.nativeFhirHelpers, includes, valueSets, this.elm])).digest('base64');
    }
    return this.key;
  }

  include(alias: string): CompiledLibrary | undefined {
    const def = this.elm.library.includes?.def?.find((d) => d.localIdentifier === alias);
    // MADiE's 2025 exports namespace the path (`https://madie.cms.gov/FHIRHelpers`); the library's name is its last segment.
    return def ? this.set.resolve(def.path.slice(def.path.lastIndexOf('/') + 1), def.version) : undefined;
  }

  /** Names of the defines (not functions) of this library. */
  defineNames(): string[] {
    return [...this.statements.values()].flat().filter((s) => s.type !== 'FunctionDef').map((s) => s.name);
  }

  define(name: string): Run | undefined {
    const known = this.defines.get(name);
    if (known) return known;
    const statement = this.statements.get(name)?.find((s) => s.type !== 'FunctionDef');
    if (!statement) return undefined;
    const slot = this.set.allocateSlot();
    const location = { library: this.name, statement: `define "${name}"` };
    let body: Run | undefined;
    let frameSize = 0;
    let sharedKey: string | undefined;
    const run: Run = (c) => {
      const memo = c.memo[slot];
      if (memo !== UNSET) return memo;
      sharedKey ??= `${this.contentKey()}\n${name}`;
      if (c.shared.has(sharedKey)) return (c.memo[slot] = c.shared.get(sharedKey));
      let value: unknown;
      try {
        value = body!(c, new Array(frameSize));
      } catch (error) {
        throw annotate(error, location);
      }
      c.memo[slot] = value;
      c.shared.set(sharedKey, value);
      return value;
    };
    this.defines.set(name, run);
    const scope = new Scope(this, location.statement, { size: 0 });
    if (statement.context !== undefined && statement.context !== 'Patient') {
      body = this.set.compiler.unsupported(`define in the ${statement.context} context`, scope);
    } else {
      body = this.set.compiler.expr(statement.expression, scope);
    }
    frameSize = scope.frame.size;
    return run;
  }

  functions(name: string): CompiledFunction[] {
    const known = this.functionsByName.get(name);
    if (known) return known;
    const defs = (this.statements.get(name) ?? []).filter((s) => s.type === 'FunctionDef');
    const compiled = defs.map((def) => ({ name, operands: def.operand ?? [], body: undefined, frameSize: def.external ? -1 : 0 }) as CompiledFunction);
    this.functionsByName.set(name, compiled);
    defs.forEach((def, i) => {
      if (def.external) return;
      const fn = compiled[i];
      const location = { library: this.name, statement: `function ${name}` };
      const scope = new Scope(this, location.statement, { size: 0 });
      for (const operand of fn.operands) scope.declare(operand.name);
      const body = this.set.compiler.expr(def.expression, scope);
      fn.frameSize = scope.frame.size;
      fn.body = (c, f) => {
        try {
          return body(c, f);
        } catch (error) {
          throw annotate(error, location);
        }
      };
    });
    return compiled;
  }

  parameter(name: string): Run | undefined {
    const known = this.parameters.get(name);
    if (known) return known;
    const def = this.elm.library.parameters?.def?.find((p) => p.name === name);
    if (!def) return undefined;
    let run: Run;
    if (name === MEASUREMENT_PERIOD) run = (c: EvalContext) => c.period;
    else if (def.default) {
      const slot = this.set.allocateSlot();
      const scope = new Scope(this, `parameter "${name}"`, { size: 0 });
      const body = this.set.compiler.expr(def.default, scope);
      const size = () => scope.frame.size;
      run = (c) => {
        if (c.memo[slot] === UNSET) c.memo[slot] = body(c, new Array(size()));
        return c.memo[slot];
      };
    } else run = () => null;
    this.parameters.set(name, run);
    return run;
  }

  valueSet(name: string): { url: string; version?: string } | undefined {
    const def = this.elm.library.valueSets?.def?.find((d) => d.name === name);
    return def ? { url: def.id, version: def.version } : undefined;
  }

  codeSystem(name: string): { id: string; version?: string } | undefined {
    const def = this.elm.library.codeSystems?.def?.find((d) => d.name === name);
    return def ? { id: def.id, version: def.version } : undefined;
  }

  code(name: string): { code: string; system: string; version?: string; display?: string } | undefined {
    const def = this.elm.library.codes?.def?.find((d) => d.name === name);
    if (!def) return undefined;
    const owner = def.codeSystem.libraryName ? this.include(def.codeSystem.libraryName) : this;
    const system = owner?.codeSystem(def.codeSystem.name);
    return system ? { code: def.id, system: system.id, version: system.version, display: def.display } : undefined;
  }

  concept(name: string): { codes: { code: string; system: string; version?: string; display?: string }[]; display?: string } | undefined {
    const def = this.elm.library.concepts?.def?.find((d) => d.name === name);
    if (!def) return undefined;
    const codes = def.code.map((ref) => (ref.libraryName ? this.include(ref.libraryName) : this)?.code(ref.name));
    if (codes.some((c) => !c)) return undefined;
    return { codes: codes as { code: string; system: string }[], display: def.display };
  }
}

/** The innermost statement names the failure; outer ones pass it on unchanged. */
function annotate(error: unknown, location: { library: string; statement: string }): Error {
  if (error instanceof ElmEvaluationError && error.location) return error;
  const message = error instanceof ElmEvaluationError ? error.message : `${error instanceof Error ? error.name : 'error'} in the reference semantics`;
  return new ElmEvaluationError(message, location);
}
