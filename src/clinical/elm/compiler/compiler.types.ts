import type { DateTime, Interval } from 'cql-execution';
import type { ElmNode, ElmOperandDef, TypeSpecifier } from '../elm.types';
import type { DataSettings } from '../runtime/fhir-value';
import type { PatientData } from '../runtime/patient-data';
import type { Expansion } from '../runtime/value-sets';

/**
 * The compiled form: every ELM expression becomes one closure `(context, frame) => value`, built
 * once per measure. `context` is the patient's evaluation (memoised defines, retrievable data,
 * parameters); `frame` holds the local names of the define or function being run (query aliases,
 * lets, operands), each at a slot fixed at compile time, so a name costs an array read.
 */
export type Frame = unknown[];
export type Run = (context: EvalContext, frame: Frame) => unknown;

export interface EvalContext {
  /** One slot per compiled define and parameter of the measure, `UNSET` until first read. */
  readonly memo: unknown[];
  readonly data: PatientData;
  readonly settings: DataSettings;
  /** The measurement period (the "Measurement Period" parameter of every library). */
  readonly period: Interval;
  /** The evaluation's `Now()` (its offset is the practice's). */
  readonly now: DateTime;
  /**
   * Define values of the patient's evaluations in this period, by library content and define name:
   * what one measure's copy of a library computed, another measure's identical copy reads.
   */
  readonly shared: Map<string, unknown>;
}

export const UNSET: unique symbol = Symbol('unset');

/** A compiled FunctionDef: its operands' slots are the first of its frame. */
export interface CompiledFunction {
  readonly name: string;
  readonly operands: readonly ElmOperandDef[];
  /** Set once compiled; a recursive reference sees the holder before the body exists. */
  body: Run | undefined;
  frameSize: number;
}

/** What a reference resolves to in a library: compiled lazily, once. */
export interface LibraryScope {
  readonly name: string;
  readonly version: string | undefined;
  include(alias: string): LibraryScope | undefined;
  /** The closure reading a define's memoised value; undefined for an unknown name. */
  define(name: string): Run | undefined;
  /** Every FunctionDef overload of a name, compiled on demand. */
  functions(name: string): CompiledFunction[];
  parameter(name: string): Run | undefined;
  valueSet(name: string): { url: string; version?: string } | undefined;
  codeSystem(name: string): { id: string; version?: string } | undefined;
  code(name: string): { code: string; system: string; version?: string; display?: string } | undefined;
  concept(name: string): { codes: { code: string; system: string; version?: string; display?: string }[]; display?: string } | undefined;
  /** True for the FHIRHelpers library (whose functions may run natively). */
  readonly isFhirHelpers: boolean;
}

/** Compile-time view of the names a node can see. Nested query scopes share their frame. */
export class Scope {
  private readonly names = new Map<string, number>();

  constructor(
    readonly library: LibraryScope,
    readonly statement: string,
    readonly frame: { size: number },
    readonly parent?: Scope,
    /** In a sort clause: the slot of the row being sorted (IdentifierRef and `$this` read it). */
    readonly sortRow?: number,
  ) {}

  child(sortRow?: number): Scope {
    return new Scope(this.library, this.statement, this.frame, this, sortRow ?? this.sortRow);
  }

  declare(name: string): number {
    const slot = this.frame.size++;
    this.names.set(name, slot);
    return slot;
  }

  slotOf(name: string): number | undefined {
    return this.names.get(name) ?? this.parent?.slotOf(name);
  }
}

/** The services a node family's handler uses: compiling children, reporting, shared indexes. */
export interface Compiler {
  /** Compiles a child expression. */
  expr(node: unknown, scope: Scope): Run;
  /** Records an unsupported construct (compilation fails at the end) and returns a placeholder. */
  unsupported(construct: string, scope: Scope): Run;
  /** The expansion of a value-set URL; a URL without one is recorded and matches nothing. */
  expansion(url: string): Expansion;
  /** `Expansion.membership` of a value-set URL's expansion, recording nothing (`missing` without one). */
  membershipOf(url: string): string;
  /** Whether FHIRHelpers functions run natively (true) or as their compiled ELM. */
  readonly nativeFhirHelpers: boolean;
  /**
   * Gives each node a slot of the scope’s frame where its value is kept once computed: compiling
   * one of them (the next time only) yields a closure that computes it on first use and then reads
   * the slot until the slot is reset to `UNSET` (a query does at each evaluation; see hoisting.ts).
   */
  hoist(nodes: readonly object[], scope: Scope): Hoisted;
}

/** The slots `Compiler.hoist` gave, and how to forget the nodes it was given that were not compiled. */
export interface Hoisted {
  readonly slots: readonly number[];
  release(): void;
}

export type Handler = (node: ElmNode, scope: Scope, compiler: Compiler) => Run;

/** Operand nodes of a node, as an array (ELM writes one operand as an object). */
export function operands(node: ElmNode): unknown[] {
  const operand = node.operand;
  if (operand === undefined || operand === null) return [];
  return Array.isArray(operand) ? operand : [operand];
}

/** The static type the translator wrote on a node, if any. */
export function staticType(node: unknown): TypeSpecifier | undefined {
  if (!node || typeof node !== 'object') return undefined;
  const n = node as ElmNode;
  if (n.resultTypeSpecifier) return n.resultTypeSpecifier;
  if (typeof n.resultTypeName === 'string') return { type: 'NamedTypeSpecifier', name: n.resultTypeName };
  return undefined;
}
