/** How environment strings become the values the schema validates (a value it cannot read is left for validation to refuse). */
export const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;

export const toBool = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  const normalised = value.trim().toLowerCase();
  if (['true', '1', 'yes'].includes(normalised)) return true;
  if (['false', '0', 'no', ''].includes(normalised)) return false;
  return value;
};

export const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);
