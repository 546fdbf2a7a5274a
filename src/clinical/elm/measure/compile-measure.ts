import { ElmCompileError } from '../elm-errors';
import type { ElmLibrary } from '../elm.types';
import { Scope } from '../compiler/compiler.types';
import { ExpressionCompiler } from '../compiler/expression-compiler';
import { CompiledLibrary, LibrarySet } from '../compiler/library';
import { ValueSetIndex, ValueSetResource } from '../runtime/value-sets';
import {
  CompiledGroup,
  CompiledMeasure,
  CompiledPopulation,
  CompiledStratifier,
  FhirExtension,
  FhirMeasure,
  MeasureGroup,
  POPULATION_CODES,
  PopulationCode,
  Scoring,
} from './measure.types';

/**
 * compileMeasure: a FHIR Measure, the ELM of its libraries and the expansions of its value sets,
 * compiled once into closures. Everything the measure evaluates is compiled here: each group's
 * population and stratifier criteria, their dependencies across the included libraries, and every
 * define of the main library; an ELM construct the compiler does not implement refuses the measure
 * (ElmCompileError), naming each such construct with its library and statement.
 */

export interface CompileOptions {
  /**
   * Run FHIRHelpers' conversions natively (runtime/fhir-helpers.ts) instead of compiling the library's
   * own ELM like any other library (the default). Both give the same results on every official case;
   * `npm run bench:elm` measured no speed difference worth a second implementation of the
   * stewards' library, so the ELM is what runs unless this is set.
   */
  nativeFhirHelpers?: boolean;
  /**
   * A value set the ELM names but the expansions do not include: `error` (default) refuses the
   * measure; `empty` compiles it as matching nothing and lists it in `missingValueSets`.
   */
  missingValueSets?: 'error' | 'empty';
}

const EXT = {
  scoring: ['http://hl7.org/fhir/us/cqfmeasures/StructureDefinition/cqfm-scoring', 'http://hl7.org/fhir/uv/cqm/StructureDefinition/cqm-scoring'],
  basis: ['http://hl7.org/fhir/us/cqfmeasures/StructureDefinition/cqfm-populationBasis', 'http://hl7.org/fhir/uv/cqm/StructureDefinition/cqm-populationBasis'],
  criteriaReference: ['http://hl7.org/fhir/us/cqfmeasures/StructureDefinition/cqfm-criteriaReference', 'http://hl7.org/fhir/StructureDefinition/cqf-criteriaReference'],
  appliesTo: ['http://hl7.org/fhir/us/cqfmeasures/StructureDefinition/cqfm-appliesTo', 'http://hl7.org/fhir/uv/cqm/StructureDefinition/cqm-appliesTo'],
};
const SCORING_SYSTEMS = ['http://hl7.org/fhir/measure-scoring', 'http://terminology.hl7.org/CodeSystem/measure-scoring'];
const POPULATION_SYSTEM = 'http://terminology.hl7.org/CodeSystem/measure-population';

const ext = (extensions: FhirExtension[] | undefined, urls: string[]) => extensions?.find((e) => urls.includes(e.url));

/** `https://…/Library/Name|1.0.000` → name and version. */
function parseCanonical(canonical: string): { name: string; version: string | undefined } {
  const [url, version] = canonical.split('|');
  return { name: url.slice(url.lastIndexOf('/') + 1), version };
}

function populationCode(population: { code?: { coding?: { system?: string; code?: string }[] } }): PopulationCode | null {
  const code = population.code?.coding?.find((c) => c.system === POPULATION_SYSTEM)?.code;
  return code && (POPULATION_CODES as readonly string[]).includes(code) ? (code as PopulationCode) : null;
}

function scoringOf(measure: FhirMeasure, group: MeasureGroup): Scoring {
  const code = ext(group.extension, EXT.scoring)?.valueCodeableConcept?.coding?.[0]?.code ?? measure.scoring?.coding?.find((c) => SCORING_SYSTEMS.includes(c.system ?? ''))?.code;
  return (code ?? 'proportion') as Scoring;
}

/** fqm-execution's isEpisodeOfCareGroup: the group's population basis, a ratio group's populations', else the measure's. */
function basisOf(measure: FhirMeasure, group: MeasureGroup, scoring: Scoring): string {
  const own = ext(group.extension, EXT.basis)?.valueCode;
  if (own) return own;
  if (scoring === 'ratio') {
    const bases = (group.population ?? []).filter((p) => populationCode(p) !== 'measure-observation').map((p) => ext(p.extension, EXT.basis)?.valueCode).filter((b): b is string => !!b);
    if (bases.length > 0) return bases.find((b) => b !== 'boolean') ?? 'boolean';
  }
  return ext(measure.extension, EXT.basis)?.valueCode ?? 'boolean';
}

class Libraries implements LibrarySet {
  private readonly byKey = new Map<string, CompiledLibrary>();
  private slots = 0;

  constructor(
    elms: readonly ElmLibrary[],
    readonly compiler: ExpressionCompiler,
  ) {
    for (const elm of elms) {
      const library = new CompiledLibrary(elm, this);
      this.byKey.set(`${library.name}|${library.version ?? ''}`, library);
      if (!this.byKey.has(library.name)) this.byKey.set(library.name, library);
    }
  }

  get memoSize(): number {
    return this.slots;
  }

  allocateSlot(): number {
    return this.slots++;
  }

  resolve(name: string, version: string | undefined): CompiledLibrary | undefined {
    return this.byKey.get(`${name}|${version ?? ''}`) ?? this.byKey.get(name);
  }
}

export function compileMeasure(
  measure: FhirMeasure,
  libraries: ReadonlyMap<string, ElmLibrary> | readonly ElmLibrary[],
  valueSets: readonly ValueSetResource[],
  options: CompileOptions = {},
): CompiledMeasure {
  const compiler = new ExpressionCompiler(new ValueSetIndex(valueSets), options.nativeFhirHelpers === true);
  const set = new Libraries(Array.isArray(libraries) ? libraries : [...(libraries as ReadonlyMap<string, ElmLibrary>).values()], compiler);
  const canonical = measure.library?.[0];
  const target = canonical ? parseCanonical(canonical) : undefined;
  const main = target ? set.resolve(target.name, target.version) : undefined;
  if (!main) throw new ElmCompileError([{ construct: `main library ${target?.name ?? '(none)'} not given`, library: target?.name ?? '?', statement: 'Measure.library' }]);
  const scope = new Scope(main, 'Measure.group', { size: 0 });
  const define = (expression: string | undefined) => {
    const run = expression ? main.define(expression) : undefined;
    if (!run) compiler.unsupported(`population criteria "${expression ?? ''}" names no define`, scope);
    return run ?? null;
  };

  const groups = (measure.group ?? []).map((group): CompiledGroup => {
    const scoring = scoringOf(measure, group);
    const basis = basisOf(measure, group, scoring);
    const populations: CompiledPopulation[] = [];
    for (const population of group.population ?? []) {
      const code = populationCode(population);
      if (!code) continue;
      const expression = population.criteria.expression ?? '';
      const criteriaReferenceId = ext(population.extension, EXT.criteriaReference)?.valueString;
      populations.push({ id: population.id, code, expression, run: code === 'measure-observation' ? null : define(expression), criteriaReferenceId });
    }
    for (const observation of populations.filter((p) => p.code === 'measure-observation')) {
      const observed =
        populations.find((p) => p.code === 'measure-population') ?? (observation.criteriaReferenceId ? populations.find((p) => p.id === observation.criteriaReferenceId) : undefined);
      const fn = main.functions(observation.expression)[0];
      if (!observed || !fn) compiler.unsupported(`measure observation "${observation.expression}" without its function or observed population`, scope);
      else observation.observation = { fn, observed };
    }
    let strataIndex = 1;
    const stratifiers = (group.stratifier ?? [])
      .filter((s) => s.criteria?.expression)
      .map((s): CompiledStratifier => {
        const appliesTo = ext(s.extension, EXT.appliesTo)?.valueCodeableConcept?.coding?.[0]?.code as PopulationCode | undefined;
        return { id: s.id, code: s.code?.text ?? s.id ?? `strata-${strataIndex++}`, run: define(s.criteria!.expression) ?? (() => null), appliesTo };
      });
    return { id: group.id ?? null, scoring, basis, episodeBased: basis !== 'boolean', populations, stratifiers };
  });

  // The reference engine evaluates every define of the main library: compile them all, so an unsupported construct anywhere in it is found.
  const defines = new Map(main.defineNames().map((name) => [name, main.define(name)!]));

  const missingValueSets = [...compiler.missingValueSets].sort();
  if (options.missingValueSets !== 'empty') {
    for (const url of missingValueSets) compiler.problems.push({ construct: `value set ${url} (no expansion given)`, library: main.name, statement: 'Measure' });
  }
  if (compiler.problems.length > 0) throw new ElmCompileError(compiler.problems);
  return { url: measure.url, version: measure.version, library: { name: main.name, version: main.version }, groups, missingValueSets, memoSize: set.memoSize, defines };
}
