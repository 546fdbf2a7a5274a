import { Interpretation, ObservationStatus, QICORE_EXTENSION } from '../cohort/enum';
import { Coded, codingsOf, firstCode, observationCategory, preferredCoding } from './codes';
import { asNumber, asObject, asObjects, asString, Json } from './json';
import {
  afterDeath,
  encounterOf,
  identity,
  idOf,
  lenientInstant,
  MapContext,
  mappedStatus,
  openPeriod,
  optionalCode,
  optionalInstant,
  patientOf,
  requiredCode,
  SourceResource,
} from './map-context';
import { MappedResource, Row, SkipResource } from './fhir-import.types';
import { referenceOf, rowIdIn } from './references';
import { cleanText, parseFhirDate } from './text';

/** Every R4 status is stored: `registered` and `unknown` too (a test ordered, a result not yet known). */
const STATUSES = identity(ObservationStatus);

const INTERPRETATIONS = new Set<string>(Object.values(Interpretation));

const UCUM = 'http://unitsofmeasure.org';


/**
 * What is stored when the source gives neither a value nor a `dataAbsentReason`: FHIR's own
 * data-absent-reason code for "a value is expected but not known". The measures count a test
 * performed without a result, so the row is kept; the summary counts such rows under a warning.
 */
export const NO_VALUE_GIVEN = 'unknown';

export interface Value {
  value_numeric: string | null;
  value_text: string | null;
  unit: string | null;
  value_system: string | null;
  value_code: string | null;
}

const text = (value: string, unit: string | null = null): Value => ({ value_numeric: null, value_text: value, unit, value_system: null, value_code: null });
const quantityNumber = (quantity: unknown) => asNumber(asObject(quantity)?.value);
const unitOf = (quantity: Json | undefined) =>
  (quantity?.system === UCUM ? cleanText(quantity.code) : null) ?? cleanText(quantity?.unit) ?? cleanText(quantity?.code);

/**
 * An observation's (or component's) value. Numbers keep every digit JSON gave them; a quantity
 * with a comparator (`<5`) is text, because it is not the number 5. A coded value keeps its coding
 * (`value_system`/`value_code`) with its display as text. Ranges, ratios and periods have no column
 * of their own and are kept as text (`1-3 mg`, `1:128`, `start/end`). The unit is the UCUM code when
 * the quantity gives one, else its printable unit: exactly as recorded, never converted.
 */
export function valueOf(element: Json, context?: Pick<MapContext, 'isKnownCode'>): Value | null {
  const quantity = asObject(element.valueQuantity);
  if (quantity) {
    const number = asNumber(quantity.value);
    if (number === undefined) return null;
    const unit = unitOf(quantity);
    const comparator = asString(quantity.comparator);
    return comparator && ['<', '<=', '>=', '>'].includes(comparator)
      ? text(`${comparator}${number}`, unit)
      : { value_numeric: String(number), value_text: null, unit, value_system: null, value_code: null };
  }
  const concept = asObject(element.valueCodeableConcept);
  if (concept) {
    const coding = preferredCoding(codingsOf(concept), context?.isKnownCode);
    const display = coding?.display ?? cleanText(concept.text) ?? firstCode(concept) ?? null;
    if (display === null) return null;
    return { value_numeric: null, value_text: display, unit: null, value_system: coding?.system ?? null, value_code: coding?.code ?? null };
  }
  const integer = asNumber(element.valueInteger);
  if (integer !== undefined) return { value_numeric: String(integer), value_text: null, unit: null, value_system: null, value_code: null };
  if (typeof element.valueBoolean === 'boolean') return text(String(element.valueBoolean));
  const plain = cleanText(element.valueString) ?? cleanText(element.valueDateTime) ?? cleanText(element.valueTime);
  if (plain !== null) return text(plain);
  return structuredValue(element);
}

function structuredValue(element: Json): Value | null {
  const range = asObject(element.valueRange);
  if (range) {
    const [low, high] = [quantityNumber(range.low), quantityNumber(range.high)];
    if (low === undefined && high === undefined) return null;
    return text(`${low ?? ''}-${high ?? ''}`, unitOf(asObject(range.low) ?? asObject(range.high)));
  }
  const ratio = asObject(element.valueRatio);
  if (ratio) {
    const [numerator, denominator] = [quantityNumber(ratio.numerator), quantityNumber(ratio.denominator)];
    return numerator === undefined || denominator === undefined ? null : text(`${numerator}:${denominator}`);
  }
  const period = asObject(element.valuePeriod);
  const [start, end] = [cleanText(period?.start), cleanText(period?.end)];
  return start || end ? text(`${start ?? ''}/${end ?? ''}`) : null;
}

/** When a value is absent: the source's `dataAbsentReason` code, or `NO_VALUE_GIVEN` with a warning. */
function absentReason(element: Json, warnings: string[], what: string): string {
  const reason = firstCode(element.dataAbsentReason);
  if (reason) return reason;
  warnings.push(element.valueSampledData !== undefined ? `${what} is SampledData (no column; stored as data absent)` : `${what} has no value and no dataAbsentReason (stored as data absent)`);
  return NO_VALUE_GIVEN;
}

function referenceRange(element: Json): Pick<Row, 'reference_low' | 'reference_high' | 'reference_text'> {
  const range = asObjects(element.referenceRange)[0];
  const bound = (key: string) => {
    const value = asNumber(asObject(range?.[key])?.value);
    return value === undefined ? null : String(value);
  };
  return { reference_low: bound('low'), reference_high: bound('high'), reference_text: cleanText(range?.text) };
}

function interpretationOf(element: Json): string | null {
  const code = firstCode(asObjects(element.interpretation)[0]);
  return code && INTERPRETATIONS.has(code) ? code : null;
}

/**
 * When the observation was made: `effectiveDateTime`, `effectiveInstant`, or `effectivePeriod`
 * (its start, or its end when that is all it has; the end is kept as `effective_end_at`). With no
 * effective[x] at all, `issued` dates it (with a warning): a result needs a time to be read at all.
 */
function effectiveOf(resource: Json, warnings: string[]) {
  const period = asObject(resource.effectivePeriod);
  const end = optionalInstant(period?.end, 'effectivePeriod.end');
  const point = resource.effectiveDateTime ?? resource.effectiveInstant ?? period?.start;
  if (point !== undefined) {
    const parsed = parseFhirDate(point);
    if (!parsed.ok) throw new SkipResource(`effective[x] ${parsed.problem === 'missing' ? 'missing' : `is ${parsed.problem}`}`);
    if (end && end.millis < parsed.millis) throw new SkipResource('effectivePeriod.end is before its start');
    return { start: parsed, end, open: resource.effectiveDateTime === undefined && resource.effectiveInstant === undefined && openPeriod(period) };
  }
  if (end) return { start: end, end, open: false };
  const issued = parseFhirDate(resource.issued);
  if (issued.ok) {
    warnings.push('effective[x] missing (dated by issued)');
    return { start: issued, end: null, open: false };
  }
  throw new SkipResource('neither effective[x] nor issued given');
}

/**
 * The Procedure an observation is `partOf`, as the row id that Procedure has (or will have) in this
 * source: procedures are written in the same pass, so there is no index to resolve it in, and a
 * Procedure's row id is a function of its reference. The chart reads it back only when that
 * Procedure is stored. A `urn:uuid:` reference names a Bundle entry by its uuid, which is its id.
 */
function partOfProcedure(context: MapContext, resource: Json): string | null {
  for (const element of asObjects(resource.partOf)) {
    const reference = referenceOf(element);
    const id = reference && (/^Procedure\/(.+)$/.exec(reference)?.[1] ?? /^urn:uuid:(.+)$/.exec(reference)?.[1]);
    if (id) return rowIdIn(context.namespace, `Procedure/${id}`);
  }
  return null;
}

/**
 * One row per observation; a panel (a blood pressure 55284-4 with systolic 8480-6 and diastolic
 * 8462-4 components) is one row per component with a value, all sharing a `panel_id`, plus a row
 * for the panel's own value if it has one. Component row ids derive from the component's code, so
 * a re-import finds them whatever their order. An observation with no value at all is stored with
 * its data-absent reason: a test performed without a result is what some measures count.
 */
export function mapObservation(source: SourceResource, context: MapContext): MappedResource {
  const { resource } = source;
  const warnings: string[] = [];
  const patient = patientOf(context, resource.subject);
  const status = mappedStatus(resource.status, STATUSES, Object.values(ObservationStatus));
  const category = observationCategory(asObjects(resource.category));
  if (!category) warnings.push(asObjects(resource.category).length === 0 ? 'no category (kept; never shown as a laboratory result)' : 'no category with a system (kept; never shown as a laboratory result)');
  const code = requiredCode(context, resource.code);
  const effective = effectiveOf(resource, warnings);
  const encounterId = encounterOf(context, resource.encounter, patient, warnings);
  if (afterDeath(patient, effective.start.millis)) warnings.push("dated after the patient's death (kept)");

  const notDone = optionalCode(context, asObjects(resource.extension).find((extension) => extension.url === QICORE_EXTENSION.notDoneReason)?.valueCodeableConcept, 'notDoneReason', warnings);
  const common = {
    patient_id: patient.rowId,
    encounter_id: encounterId,
    part_of_procedure_id: partOfProcedure(context, resource),
    issued_at: lenientInstant(resource.issued, 'issued', warnings)?.instant ?? null,
    not_done_reason_system: notDone?.system ?? null,
    not_done_reason_code: notDone?.code ?? null,
    category: category?.code ?? null,
    category_system: category?.system ?? null,
    status,
    effective_at: effective.start.instant,
    effective_end_at: effective.end?.instant ?? null,
    effective_period_open: String(effective.open),
  };
  const row = (id: string, panelId: string | null, what: Coded, value: Value | null, element: Json, absent: string | null): Row => ({
    id,
    ...common,
    panel_id: panelId,
    // The panel's own row (its code, and its value or why it has none), which its components belong to.
    panel_own_value: String(panelId !== null && what === code),
    code_system: what.system,
    code: what.code,
    display: what.display,
    ...(value ?? { value_numeric: null, value_text: null, unit: null, value_system: null, value_code: null }),
    data_absent_reason: value ? null : absent,
    ...referenceRange(element),
    interpretation: interpretationOf(element),
  });
  const result = (rows: Row[]): MappedResource => ({ type: 'Observation', key: `Observation/${source.sourceId}`, position: source.position, warnings, rows: { observations: rows } });

  const components = asObjects(resource.component);
  const value = valueOf(resource, context);
  if (components.length === 0) return result([row(idOf(context, source), null, code, value, resource, value ? null : absentReason(resource, warnings, 'observation'))]);

  const panelId = idOf(context, source);
  const rows: Row[] = value ? [row(idOf(context, source, 'value'), panelId, code, value, resource, null)] : [];
  const seen = new Set<string>();
  for (const component of components) {
    const componentCode = requiredCode(context, component.code, 'component code');
    const identity = `${componentCode.system}|${componentCode.code}`;
    if (seen.has(identity)) throw new SkipResource('two components with the same code');
    seen.add(identity);
    const componentValue = valueOf(component, context);
    // A component without a value is left out: a blood pressure with one half is not a reading.
    if (!componentValue) {
      warnings.push('component without a value (omitted)');
      continue;
    }
    rows.push(row(idOf(context, source, identity), panelId, componentCode, componentValue, component, null));
  }
  // Nothing with a value: the panel itself is kept, without one, as the record that it was done.
  // Its reason: the panel's own dataAbsentReason, else its components' (the same "not performed", usually).
  const reasonSource = resource.dataAbsentReason !== undefined ? resource : (components.find((component) => component.dataAbsentReason !== undefined) ?? resource);
  if (rows.length === 0) rows.push(row(idOf(context, source, 'value'), panelId, code, null, resource, absentReason(reasonSource, warnings, 'panel')));
  return result(rows);
}
