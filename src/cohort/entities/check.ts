import { CODE_SYSTEM_PATTERN } from '../enum';

export { enumCheck } from '../../schema/enum-check';

/**
 * The CHECK of every `*_system` column: the value has a URI's shape (`scheme:rest`). Any system a
 * source sends is kept (a closed list dropped real codes), but free text such as "ICD10" is not a
 * system and is refused. The pattern has no quote, so it can be spliced into SQL as a literal.
 */
export function codeSystemCheck(column: string, nullable = false): string {
  const check = `"${column}" ~ '${CODE_SYSTEM_PATTERN}'`;
  return nullable ? `"${column}" IS NULL OR ${check}` : check;
}
