import { Interpretation, ObservationStatus } from '../cohort/enum';
import { ALLOWED_SYSTEMS, Coded, firstCode, observationCategory, pickCoding } from './codes';
import { asNumber, asObject, asObjects, asString, Json } from './json';
import { afterDeath, encounterOf, firstPresent, idOf, MapContext, mappedStatus, patientOf, requiredInstant, SourceResource } from './map-context';
import { MappedResource, Row, SkipResource } from './fhir-import.types';
import { cleanText } from './text';

const FHIR_STATUSES = ['registered', 'preliminary', 'final', 'amended', 'corrected', 'cancelled', 'entered-in-error', 'unknown'];

/** `registered` (no result yet) and `unknown` have no counterpart; the rest are the schema's own. */
const STATUSES: Record<string, ObservationStatus> = Object.fromEntries(Object.values(ObservationStatus).map((status) => [status, status]));

const INTERPRETATIONS = new Set<string>(Object.values(Interpretation));

const UCUM = 'http://unitsofmeasure.org';

/** The value[x] kinds that exist in R4 but have no column here. */
const UNSTORED_VALUES = ['valueRange', 'valueRatio', 'valueSampledData', 'valuePeriod'];

interface Value {
  value_numeric: string | null;
  value_text: string | null;
  unit: string | null;
}

/**
 * An observation's (or component's) value. Numbers keep every digit JSON gave them; a quantity
 * with a comparator (`<5`) is text, because it is not the number 5. Coded and string values are
 * text (the concept's text, else the first coding's display, else its code). The unit is the UCUM
 * code when the quantity gives one, else its printable unit: exactly as recorded, never converted.
 */
export function valueOf(element: Json): Value | null {
  const quantity = asObject(element.valueQuantity);
  if (quantity) {
    const number = asNumber(quantity.value);
    if (number === undefined) return null;
    const unit = (quantity.system === UCUM ? cleanText(quantity.code) : null) ?? cleanText(quantity.unit) ?? cleanText(quantity.code);
    const comparator = asString(quantity.comparator);
    return comparator && ['<', '<=', '>=', '>'].includes(comparator)
      ? { value_numeric: null, value_text: `${comparator}${number}`, unit }
      : { value_numeric: String(number), value_text: null, unit };
  }
  const concept = asObject(element.valueCodeableConcept);
  if (concept) {
    const text = cleanText(concept.text) ?? cleanText(asObjects(concept.coding)[0]?.display) ?? firstCode(concept) ?? null;
    return text === null ? null : { value_numeric: null, value_text: text, unit: null };
  }
  const integer = asNumber(element.valueInteger);
  if (integer !== undefined) return { value_numeric: String(integer), value_text: null, unit: null };
  if (typeof element.valueBoolean === 'boolean') return { value_numeric: null, value_text: String(element.valueBoolean), unit: null };
  const text = cleanText(element.valueString) ?? cleanText(element.valueDateTime) ?? cleanText(element.valueTime);
  return text === null ? null : { value_numeric: null, value_text: text, unit: null };
}

function noValueReason(element: Json): string {
  const unstored = UNSTORED_VALUES.find((kind) => element[kind] !== undefined);
  return unstored ? `value type without a column in the schema (${unstored})` : 'no value (and no components with one)';
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

function coded(concept: unknown, what: string): Coded {
  const picked = pickCoding(concept, ALLOWED_SYSTEMS.observation);
  if (picked === 'missing') throw new SkipResource(`${what} missing`);
  if (picked === 'disallowed') throw new SkipResource(`${what} system outside the schema`);
  return picked;
}

/**
 * One row per observation; a panel (a blood pressure 55284-4 with systolic 8480-6 and diastolic
 * 8462-4 components) is one row per component with a value, all sharing a `panel_id`, plus a row
 * for the panel's own value if it has one. Component row ids derive from the component's code, so
 * a re-import finds them whatever their order.
 */
export function mapObservation(source: SourceResource, context: MapContext): MappedResource {
  const { resource } = source;
  const warnings: string[] = [];
  const patient = patientOf(context, resource.subject);
  const status = mappedStatus(resource.status, STATUSES, FHIR_STATUSES);
  const category = observationCategory(asObjects(resource.category));
  if (typeof category === 'object') throw new SkipResource(category.skip);
  const code = coded(resource.code, 'code');
  const effective = requiredInstant(
    firstPresent(resource.effectiveDateTime, resource.effectiveInstant, asObject(resource.effectivePeriod)?.start),
    'effective[x]',
  );
  const encounterId = encounterOf(context, resource.encounter, patient, warnings);
  if (afterDeath(patient, effective.millis)) warnings.push("dated after the patient's death (kept)");

  const common = { patient_id: patient.rowId, encounter_id: encounterId, category, status, effective_at: effective.instant };
  const row = (id: string, panelId: string | null, what: Coded, value: Value, element: Json): Row => ({
    id,
    ...common,
    panel_id: panelId,
    code_system: what.system,
    code: what.code,
    display: what.display,
    ...value,
    ...referenceRange(element),
    interpretation: interpretationOf(element),
  });

  const components = asObjects(resource.component);
  const value = valueOf(resource);
  if (components.length === 0) {
    if (!value) throw new SkipResource(noValueReason(resource));
    return { type: 'Observation', key: `Observation/${source.sourceId}`, position: source.position, warnings, rows: { observations: [row(idOf(source), null, code, value, resource)] } };
  }

  const panelId = idOf(source);
  const rows: Row[] = value ? [row(idOf(source, 'value'), panelId, code, value, resource)] : [];
  const seen = new Set<string>();
  for (const component of components) {
    const componentCode = coded(component.code, 'component code');
    const identity = `${componentCode.system}|${componentCode.code}`;
    if (seen.has(identity)) throw new SkipResource('two components with the same code');
    seen.add(identity);
    const componentValue = valueOf(component);
    if (!componentValue) {
      warnings.push('component without a value (omitted)');
      continue;
    }
    rows.push(row(idOf(source, identity), panelId, componentCode, componentValue, component));
  }
  if (rows.length === 0) throw new SkipResource('no value (and no components with one)');
  return { type: 'Observation', key: `Observation/${source.sourceId}`, position: source.position, warnings, rows: { observations: rows } };
}
