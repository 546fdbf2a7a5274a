import { ElmEvaluationError } from '../elm-errors';
import { typeToString, typeSpecifierOf, TypeSpecifier } from '../elm.types';
import { NATIVE_FHIR_HELPERS } from '../runtime/fhir-helpers';
import { isNil } from '../runtime/fhir-value';
import { matchesType } from '../runtime/type-match';
import { CompiledFunction, EvalContext, Frame, Handler, Run, operands } from './compiler.types';
import { libraryOf } from './clinical';

/**
 * References between statements: a define is a memoised read (compiled once, evaluated at most
 * once per patient); a function call evaluates its arguments into a fresh frame and runs the
 * function's compiled body. Overloads are chosen at compile time from the call's signature where
 * the translator wrote one, otherwise at run time as the reference engine chooses (arity, then the
 * argument types, the last match winning). FHIRHelpers may run natively (runtime/fhir-helpers.ts).
 */

const operandType = (operand: CompiledFunction['operands'][number]): TypeSpecifier | undefined => typeSpecifierOf(operand.operandType, operand.operandTypeSpecifier);

function call(fn: CompiledFunction, args: readonly Run[], name: string): Run {
  return (c, f) => {
    const frame: Frame = new Array(fn.frameSize);
    for (let i = 0; i < args.length; i++) frame[i] = args[i](c, f);
    if (!fn.body) throw new ElmEvaluationError(`function ${name} has no body`);
    return fn.body(c, frame);
  };
}

/** The overload whose declared operand types are exactly the call's signature, if exactly one is. */
function bySignature(candidates: CompiledFunction[], signature: TypeSpecifier[] | undefined): CompiledFunction | undefined {
  if (!signature || signature.length === 0) return undefined;
  const wanted = signature.map(typeToString).join(',');
  const matches = candidates.filter((fn) => fn.operands.map((o) => typeToString(operandType(o))).join(',') === wanted);
  return matches.length === 1 ? matches[0] : undefined;
}

export const referenceHandlers: Record<string, Handler> = {
  ExpressionRef: (node, scope, cx) => {
    const library = libraryOf(node, scope);
    const read = library?.define(String(node.name));
    if (!read) return cx.unsupported(`ExpressionRef to an unknown define`, scope);
    return read;
  },
  ParameterRef: (node, scope, cx) => {
    const read = libraryOf(node, scope)?.parameter(String(node.name));
    if (!read) return cx.unsupported('ParameterRef to an unknown parameter', scope);
    return read;
  },
  FunctionRef: (node, scope, cx) => {
    const library = libraryOf(node, scope);
    const name = String(node.name);
    if (!library) return cx.unsupported('FunctionRef to an unknown library', scope);
    const args = operands(node).map((o) => cx.expr(o, scope));
    if (library.isFhirHelpers && cx.nativeFhirHelpers && NATIVE_FHIR_HELPERS[name]) {
      const native = NATIVE_FHIR_HELPERS[name];
      if (args.length === 1) {
        const [a] = args;
        return (c, f) => native([a(c, f)]) ?? null;
      }
      return (c, f) => native(args.map((a) => a(c, f))) ?? null;
    }
    const candidates = library.functions(name).filter((fn) => fn.operands.length === args.length);
    if (candidates.length === 0) return cx.unsupported(`FunctionRef to an unknown function (${name}/${args.length})`, scope);
    if (candidates.some((fn) => !fn.body && fn.frameSize < 0)) return cx.unsupported(`external function ${name}`, scope);
    if (candidates.length === 1) return call(candidates[0], args, name);
    const chosen = bySignature(candidates, node.signature as TypeSpecifier[] | undefined);
    if (chosen) return call(chosen, args, name);
    // The reference engine's choice, at run time: every overload whose operand types the (non-null) arguments match; the last wins.
    return (c: EvalContext, f: Frame) => {
      const values = args.map((a) => a(c, f));
      const matching = candidates.filter((fn) => values.every((v, i) => isNil(v) || matchesType(v, operandType(fn.operands[i]))));
      const fn = matching[matching.length - 1];
      if (!fn?.body) throw new ElmEvaluationError(`no overload of ${name} matches its arguments`);
      const frame: Frame = new Array(fn.frameSize);
      for (let i = 0; i < values.length; i++) frame[i] = values[i];
      return fn.body(c, frame);
    };
  },
};
