import { DateOnlyField, NotBefore } from '../../common/validation/fields';

/** An inclusive date window; either end may be left open. No window means the whole record. */
export class WindowQueryDto {
  @DateOnlyField('First day of the window (inclusive, UTC). Omit for no lower bound.', '2025-07-01')
  from?: string;

  @DateOnlyField('Last day of the window (inclusive, UTC). Omit for no upper bound.', '2026-06-30')
  @NotBefore('from')
  to?: string;
}
