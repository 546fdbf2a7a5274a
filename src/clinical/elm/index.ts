/**
 * The ELM compiler: a published eCQM (its FHIR Measure, the ELM JSON of its libraries, the
 * expansions of its value sets) compiled once into JavaScript closures, one per ELM node, then
 * evaluated per patient over that patient's FHIR R4 resources, each define at most once. A pure
 * engine: no Nest, no database, no clock (the evaluation's `Now()` is an option). CQL's datatypes and
 * their operators (date-times with precision, intervals, UCUM quantities, codes) are cql-execution's,
 * the reference engine's own; FHIR navigation follows cql-exec-fhir's FHIR model; FHIRHelpers runs
 * as its own compiled ELM (or natively, as an option). Where cql-execution and the CQL specification
 * differ, the compiler follows cql-execution, whose family computes the stewards' expected results.
 */
export { compileMeasure, type CompileOptions } from './measure/compile-measure';
export { definesReferencedBy, resourcesIn, type ResourceRef } from './measure/explain';
export { dataRequirementsOf, type DataRequirement, type RequirementCode } from './measure/data-requirements';
export { RequirementSelector, type SelectorOptions } from './measure/requirement-selector';
export { evaluateDefines, evaluateMeasure, evaluateMeasureExplained, MeasurePatient, type DefineNames, type EvaluateOptions, type MeasureInput, type MeasurementPeriod } from './measure/evaluate-measure';
export type { CompiledMeasure, FhirMeasure, GroupResult, MeasureEvaluation, PopulationCode } from './measure/measure.types';
export { ElmCompileError, ElmEvaluationError, type UnsupportedConstruct } from './elm-errors';
export type { ElmLibrary } from './elm.types';
export type { ValueSetResource } from './runtime/value-sets';
export type { FhirResource } from './runtime/patient-data';

import type { ElmLibrary } from './elm.types';

/** The ELM JSON of a FHIR Library resource (its `application/elm+json` content), or undefined. */
export function elmOfLibrary(library: { content?: { contentType?: string; data?: string }[] }): ElmLibrary | undefined {
  const content = library.content?.find((c) => c.contentType === 'application/elm+json');
  return content?.data ? (JSON.parse(Buffer.from(content.data, 'base64').toString('utf8')) as ElmLibrary) : undefined;
}
