import { ToolName } from '../../tools/tool-names';
import { codeSystemName, codeText, dayText, numberText, quotedRecordText, serviceText, unitText, vocabularyText } from './record-values';

/**
 * The closed vocabulary of facts an answer may state, and how the server writes each one from the
 * rows it cites. The model only chooses facts (a kind and citations); every word, number, date and
 * unit the clinician reads is written here from the cited rows' own values. A kind reads rows of
 * one tool only; its template words contain no digits, so every number in a statement is a value of
 * a cited row.
 */
export const FACT_KINDS = ['lab_value', 'lab_trend', 'care_gap', 'missing_element', 'readmission_risk', 'risk_driver', 'encounter'] as const;
export type FactKind = (typeof FACT_KINDS)[number];

export interface Rendered {
  text: string;
  /** The row fields the text was written from. */
  fields: string[];
}

/** Why the cited rows cannot make this fact (the rows exist and are of the right tool). */
export type RenderRefusal = 'trend_mismatch';

interface FactSpec {
  tool: ToolName;
  /** Which of the tool's citation ids the kind reads, when the tool returns rows of two kinds (a prediction and its drivers). */
  cites?: RegExp;
  /** How many rows the fact cites. */
  rows: number;
  describe: string;
  render(rows: Record<string, unknown>[]): Rendered | RenderRefusal;
}

/** Collects the parts of a sentence and the fields they came from; a part with a null value is left out. */
class Sentence {
  private readonly parts: string[] = [];
  readonly fields = new Set<string>();

  add(text: string | null, ...fields: string[]): this {
    if (text !== null) {
      this.parts.push(text);
      fields.forEach((field) => this.fields.add(field));
    }
    return this;
  }

  done(): Rendered {
    return { text: `${this.parts.join('')}.`, fields: [...this.fields].sort() };
  }
}

const when = <T>(value: T | null, write: (value: T) => string): string | null => (value === null ? null : write(value));

function labLabel(row: Record<string, unknown>, sentence: Sentence): void {
  const display = quotedRecordText(row.display);
  const code = codeText(row.code);
  const system = codeSystemName(row.codeSystem);
  sentence.add(display ?? 'A result', 'display');
  sentence.add(when(code, (value) => ` (${system ? `${system} ` : 'code '}${value})`), 'code', ...(system ? ['codeSystem'] : []));
}

function labResult(row: Record<string, unknown>, sentence: Sentence): void {
  const value = numberText(row.value);
  const unit = unitText(row.unit);
  if (value !== null) sentence.add(`${value}${unit ? ` ${unit}` : ''}`, 'value', ...(unit ? ['unit'] : []));
  else sentence.add(quotedRecordText(row.valueText) ?? 'no value recorded', 'valueText');
}

const INTERPRETATION: Readonly<Record<string, string>> = { N: 'normal', H: 'high', L: 'low', HH: 'critically high', LL: 'critically low', A: 'abnormal' };

function labValue([row]: Record<string, unknown>[]): Rendered {
  const sentence = new Sentence();
  labLabel(row, sentence);
  sentence.add(': ');
  labResult(row, sentence);
  sentence.add(when(dayText(row.effectiveAt), (day) => ` on ${day}`), 'effectiveAt');
  const low = numberText(row.referenceLow);
  const high = numberText(row.referenceHigh);
  const unit = unitText(row.unit);
  if (low !== null && high !== null) sentence.add(` (reference ${low}–${high}${unit ? ` ${unit}` : ''})`, 'referenceLow', 'referenceHigh');
  else if (low !== null) sentence.add(` (reference at least ${low})`, 'referenceLow');
  else if (high !== null) sentence.add(` (reference at most ${high})`, 'referenceHigh');
  else sentence.add(when(quotedRecordText(row.referenceText), (text) => ` (reference ${text})`), 'referenceText');
  sentence.add(when(INTERPRETATION[String(row.interpretation)] ?? null, (word) => `, flagged ${word}`), 'interpretation');
  sentence.add(when(row.status === 'final' ? null : vocabularyText(row.status), (status) => `, status ${status}`), 'status');
  return sentence.done();
}

/** Two numeric results of the same code and unit, earlier first, and which way they went. */
function labTrend(rows: Record<string, unknown>[]): Rendered | RenderRefusal {
  const [first, second] = [...rows].sort((a, b) => String(a.effectiveAt).localeCompare(String(b.effectiveAt)));
  const values = [numberText(first.value), numberText(second.value)];
  const sameTest = codeText(first.code) !== null && first.code === second.code && first.codeSystem === second.codeSystem;
  const sameUnit = (first.unit ?? null) === (second.unit ?? null) && (first.unit === null || first.unit === undefined || unitText(first.unit) !== null);
  if (!sameTest || !sameUnit || values.includes(null) || dayText(first.effectiveAt) === null || dayText(second.effectiveAt) === null) {
    return 'trend_mismatch';
  }
  const [earlier, later] = [first.value as number, second.value as number];
  const direction = later > earlier ? 'higher' : later < earlier ? 'lower' : 'unchanged';
  const sentence = new Sentence();
  labLabel(first, sentence);
  const unit = unitText(first.unit);
  const result = (row: Record<string, unknown>) => `${numberText(row.value)}${unit ? ` ${unit}` : ''} on ${dayText(row.effectiveAt)}`;
  sentence.add(`: ${result(first)}, then ${result(second)} (${direction})`, 'value', 'effectiveAt', ...(unit ? ['unit'] : []));
  return sentence.done();
}

const GAP_STATUS: Readonly<Record<string, string>> = { 'open-gap': 'open gap', 'closed-gap': 'gap closed', 'not-applicable': 'not applicable' };

function careGap([row]: Record<string, unknown>[]): Rendered {
  const sentence = new Sentence();
  sentence.add(serviceText(row.version) ?? vocabularyText(row.measureId) ?? 'A measure', row.version ? 'version' : 'measureId');
  sentence.add(when(serviceText(row.title), (title) => ` (${title})`), 'title');
  const [start, end] = [dayText(row.periodStart), dayText(row.periodEnd)];
  sentence.add(start && end ? `, measurement period ${start} to ${end}` : null, 'periodStart', 'periodEnd');
  sentence.add(`: ${GAP_STATUS[String(row.status)] ?? 'status unknown'}`, 'status');
  sentence.add(when(serviceText(row.reason), (reason) => `. ${reason.replace(/\.$/, '')}`), 'reason');
  sentence.add(row.status === 'open-gap' ? when(serviceText(row.toClose), (text) => `. To close: ${text.replace(/\.$/, '')}`) : null, 'toClose');
  attestation(row, sentence);
  return sentence.done();
}

const ATTESTER_ROLE: Readonly<Record<string, string>> = { clinician: 'a clinician', care_coordinator: 'a care coordinator', reviewer: 'a reviewer' };

/**
 * The newest attestation beside the measured status, said as an attestation: never as a closed gap,
 * and never as a change to what the measure says (only the record closes a gap).
 */
function attestation(row: Record<string, unknown>, sentence: Sentence): void {
  const [newest] = Array.isArray(row.attestations) ? (row.attestations as Record<string, unknown>[]) : [];
  const day = newest && typeof newest === 'object' ? dayText(newest.attestedAt) : null;
  if (day === null) return;
  const by = ATTESTER_ROLE[String(newest.attestedByRole)] ?? 'a colleague';
  const remark = when(vocabularyText(newest.remarkCode), (code) => ` (remark ${code})`) ?? '';
  const standing =
    row.status === 'open-gap'
      ? 'an attestation only, not a measured result: the measure still counts the gap as open'
      : row.status === 'closed-gap'
        ? 'kept as history beside the measured status'
        : 'an attestation only, which does not change the measured status';
  sentence.add(`. Attested on ${day} by ${by}${remark}: ${standing}`, 'attestations');
}

function missingElement([row]: Record<string, unknown>[]): Rendered {
  const sentence = new Sentence();
  sentence.add(`Expected data element “${vocabularyText(row.element) ?? 'unknown'}”: `, 'element');
  const lastSeen = dayText(row.lastSeen);
  switch (row.status) {
    case 'present':
      sentence.add('recorded', 'status').add(when(lastSeen, (day) => `, most recently on ${day}`), 'lastSeen');
      break;
    case 'stale':
      sentence.add('stale', 'status').add(when(lastSeen, (day) => `, last recorded on ${day}, nothing in the year before the as-of day`), 'lastSeen');
      break;
    case 'missing':
      sentence.add('never recorded here (which is not evidence that it is absent)', 'status');
      break;
    default:
      sentence.add('not expected: nothing in the chart calls for it', 'status');
  }
  sentence.add(when(serviceText(row.requiredBecause), (reason) => `; expected because of ${reason}`), 'requiredBecause');
  return sentence.done();
}

function riskDriver([row]: Record<string, unknown>[]): Rendered {
  const sentence = new Sentence();
  const label = serviceText(row.label);
  sentence.add(`Readmission risk (illustrative model), ${label ?? `feature “${vocabularyText(row.feature) ?? 'unknown'}”`}: `, label ? 'label' : 'feature');
  const [value, baseline, phi] = [numberText(row.value), numberText(row.baseline), numberText(row.phi)];
  if (row.imputed === true) {
    sentence.add(`not in the chart, the cohort baseline${when(baseline, (b) => ` ${b}`) ?? ''} stood in`, 'imputed', 'baseline');
  } else {
    sentence.add(when(value, (v) => `value ${v}`) ?? 'value not shown', 'value');
    sentence.add(when(baseline, (b) => ` against a cohort baseline of ${b}`), 'baseline');
  }
  sentence.add(when(phi, (p) => `, contribution ${p} log-odds`), 'phi');
  const direction = { raises: 'raises the risk', lowers: 'lowers the risk', neutral: 'no effect' }[String(row.direction)] ?? null;
  sentence.add(when(direction, (words) => ` (${words})`), 'direction');
  return sentence.done();
}

/** The model's prediction for the index stay: the risk as the tool reported it and the stay's days. */
function readmissionRisk([row]: Record<string, unknown>[]): Rendered {
  const sentence = new Sentence();
  sentence.add('Predicted risk of readmission within thirty days');
  const [admitted, discharged] = [dayText(row.admittedOn), dayText(row.dischargedOn)];
  sentence.add(admitted && discharged ? ` after the inpatient stay from ${admitted} to ${discharged}` : null, 'admittedOn', 'dischargedOn');
  sentence.add(`: ${when(numberText(row.riskPercent), (percent) => `${percent} percent`) ?? 'not shown'}`, 'riskPercent');
  // The model's caveat in fixed words: it is the same for every prediction, and no row text is needed to say it.
  sentence.add(' (illustrative model, not validated for clinical use)');
  return sentence.done();
}

const ENCOUNTER_CLASS: Readonly<Record<string, string>> = {
  ambulatory: 'Ambulatory', emergency: 'Emergency', inpatient: 'Inpatient', observation: 'Observation', virtual: 'Virtual', home: 'Home',
};

function encounter([row]: Record<string, unknown>[]): Rendered {
  const sentence = new Sentence();
  sentence.add(`${ENCOUNTER_CLASS[String(row.class)] ?? 'An'} encounter`, 'class');
  const [start, end] = [dayText(row.start), dayText(row.end)];
  sentence.add(when(start, (day) => (end && end !== start ? ` from ${day} to ${end}` : ` on ${day}`)), 'start', ...(end && end !== start ? ['end'] : []));
  sentence.add(when(quotedRecordText(row.typeDisplay), (text) => `: ${text}`), 'typeDisplay');
  sentence.add(when(quotedRecordText(row.reasonDisplay), (text) => `, reason ${text}`), 'reasonDisplay');
  sentence.add(when(quotedRecordText(row.disposition), (text) => `, discharge disposition ${text}`), 'disposition');
  sentence.add(when(row.status === 'finished' ? null : vocabularyText(row.status), (status) => `, status ${status}`), 'status');
  return sentence.done();
}

export const FACT_SPECS: Readonly<Record<FactKind, FactSpec>> = {
  lab_value: { tool: 'patient_labs', rows: 1, describe: 'one lab result: its value, unit, date, reference range and flag', render: labValue },
  lab_trend: { tool: 'patient_labs', rows: 2, describe: 'two numeric results of the same test and unit: both values and dates, and whether it went up or down', render: labTrend },
  care_gap: {
    tool: 'care_gap_lookup', rows: 1, render: careGap,
    describe: 'one measure’s status over its period, with the reason, what would close it and the newest attestation (an approved closure, which never changes the status)',
  },
  missing_element: { tool: 'missing_data_check', rows: 1, describe: 'one expected data element: present, stale, missing or not expected, with the last date seen', render: missingElement },
  readmission_risk: {
    tool: 'feature_attribution', cites: /^prediction:readmission-30d@/, rows: 1, render: readmissionRisk,
    describe: 'the predicted thirty-day readmission risk, citing the summary\'s "citation" (prediction:…): the risk in percent and the index stay\'s dates',
  },
  risk_driver: { tool: 'feature_attribution', cites: /^risk:/, rows: 1, describe: 'one readmission-risk feature (a row, risk:…): its label, value, the cohort baseline and its contribution', render: riskDriver },
  encounter: { tool: 'patient_encounters', rows: 1, describe: 'one encounter: class, dates, type, reason and disposition (never note text)', render: encounter },
};
