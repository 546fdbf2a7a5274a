/**
 * The compiler's two failures. Neither message carries a patient value: they name ELM constructs,
 * libraries and statements only (the stewards' published content), so they may be logged.
 */

/** Where in the published content a construct sits. */
export interface ElmLocation {
  library: string;
  /** The define or function being compiled (`define "Numerator"`, `function ToInterval`). */
  statement: string;
}

export interface UnsupportedConstruct extends ElmLocation {
  /** The ELM node type, with a detail where the type alone does not say what is missing. */
  construct: string;
}

/**
 * A measure whose ELM uses something the compiler does not implement. Compilation collects every
 * such construct before failing, so one run lists them all.
 */
export class ElmCompileError extends Error {
  constructor(readonly problems: readonly UnsupportedConstruct[]) {
    super(
      `unsupported ELM: ${problems
        .slice(0, 5)
        .map((p) => `${p.construct} (${p.library}, ${p.statement})`)
        .join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}`,
    );
    this.name = 'ElmCompileError';
  }
}

/** A failure while evaluating a compiled measure for one patient (the reference engine's errors). */
export class ElmEvaluationError extends Error {
  constructor(
    message: string,
    readonly location?: ElmLocation,
  ) {
    super(location ? `${message} (${location.library}, ${location.statement})` : message);
    this.name = 'ElmEvaluationError';
  }
}
