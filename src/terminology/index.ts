export {
  allValueSets,
  codesInSystem,
  codesOf,
  inAnyValueSet,
  inValueSet,
  LocalValueSet,
  nearMiss,
  TERMINOLOGY_SOURCE,
  UnknownValueSetError,
  valueSetInfo,
} from './terminology';
export type { CodedValue, NearMiss, NearMissKind, ValueSetCode, ValueSetInfo, ValueSetRef } from './terminology';
export type { TerminologySource } from './terminology.types';
export { VS } from './value-set-names';
export type { ValueSetName, ValueSetOid } from './value-set-names';
