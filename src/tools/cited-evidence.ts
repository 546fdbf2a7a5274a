import { citationFormOf } from '../clinical/citation-grammar';
import { ConditionRow, citationId } from '../cohort/chart.types';
import { project } from '../phi/projector';
import { ProjectionRole } from '../phi/projection-role';

/**
 * One cited item of a proposal as its reader sees it: what it is in words (`text`), built only from
 * the fields the reader's projection lets through, or why it is withheld. Never a bare id alone.
 */
export interface CitedItem {
  id: string;
  /** What kind of row the id names, in words (`condition`, `care gap`…); null for an id of no known form. */
  kind: string | null;
  withheld: boolean;
  /** The row in one line, from the projected fields only; null when withheld. */
  text: string | null;
  /** Why it is withheld; null when shown. */
  why: string | null;
}

export const WITHHELD = {
  role: "not in your role's view",
  gone: 'no longer in the record (the row was removed, or the tool no longer computes it)',
  kind: 'this kind of row is not shown in a proposal’s evidence',
} as const;

/** A cited row found for the patient, unprojected, under the projection shape that cuts it. */
export interface FoundRow {
  shape: string;
  row: Record<string, unknown>;
}

/** The shapes a proposal's evidence shows; every other kind is withheld as such. */
const SHOWN_KINDS = new Set(['obs', 'enc', 'cond', 'gap', 'missing', 'risk', 'prediction']);

export function conditionRow(condition: ConditionRow): Record<string, unknown> {
  return {
    citation: citationId('cond', condition.id),
    codeSystem: condition.codeSystem,
    code: condition.code,
    display: condition.display,
    clinicalStatus: condition.clinicalStatus,
    verificationStatus: condition.verificationStatus,
    category: condition.category,
    onsetDate: condition.onsetDate,
    abatementDate: condition.abatementDate,
    recordedAt: condition.recordedAt,
  };
}

/** Each citation, in the order cited, projected for `role` and said in words (or withheld, with why). */
export function citedItems(citations: readonly string[], found: ReadonlyMap<string, FoundRow>, role: ProjectionRole): { items: CitedItem[]; redactedFields: string[] } {
  const redacted = new Set<string>();
  const items = citations.map((id): CitedItem => {
    const form = citationFormOf(id);
    const kind = form?.names ?? null;
    const withheld = (why: string): CitedItem => ({ id, kind, withheld: true, text: null, why });
    if (!form || !SHOWN_KINDS.has(form.kind)) return withheld(WITHHELD.kind);
    const hit = found.get(id);
    if (!hit) return withheld(WITHHELD.gone);
    const projected = project(hit.shape, role, [hit.row]);
    projected.redactedFields.forEach((field) => redacted.add(field));
    const text = describe(form.kind, projected.rows[0] ?? {});
    return text ? { id, kind, withheld: false, text, why: null } : withheld(WITHHELD.role);
  });
  return { items, redactedFields: [...redacted].sort() };
}

const day = (value: unknown) => (typeof value === 'string' ? value.slice(0, 10) : undefined);
const join = (parts: unknown[], separator = ' · ') => parts.filter((part) => part !== undefined && part !== null && part !== '' && part !== false).join(separator);

/** One line from the fields present (a field the projection dropped is simply absent). */
function describe(kind: string, row: Record<string, unknown>): string {
  switch (kind) {
    case 'obs':
      return join([row.display, join([row.value ?? row.valueText, row.unit], ' '), row.interpretation && `(${String(row.interpretation)})`, day(row.effectiveAt)], ' ');
    case 'enc':
      return join([row.class, row.typeDisplay, row.reasonDisplay, day(row.start)]);
    case 'cond':
      return join([row.display, row.clinicalStatus, row.onsetDate && `onset ${String(row.onsetDate)}`, row.abatementDate && `abated ${String(row.abatementDate)}`]);
    case 'gap':
      return join([join([row.measureId, row.title], ' '), row.status, row.reason, row.periodStart && `${String(row.periodStart)} to ${String(row.periodEnd)}`]);
    case 'missing':
      return join([row.element, row.status, row.lastSeen && `last seen ${String(row.lastSeen)}`]);
    case 'risk':
      return join([row.label ?? row.feature, row.direction, row.phi !== undefined && `${String(row.phi)} log-odds`]);
    case 'prediction':
      return join([row.riskPercent !== undefined && `${String(row.riskPercent)}% predicted 30-day readmission risk`, row.dischargedOn && `after the stay ending ${String(row.dischargedOn)}`]);
    default:
      return '';
  }
}
