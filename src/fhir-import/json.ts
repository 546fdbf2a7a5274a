/**
 * Source resources are untrusted JSON: these read a field only when it has the expected JSON type,
 * so a wrong shape is "absent" rather than an exception halfway through a resource.
 */
export type Json = Record<string, unknown>;

export const asObject = (value: unknown): Json | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;

export const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export const asObjects = (value: unknown): Json[] => asArray(value).flatMap((item): Json[] => { const object = asObject(item); return object ? [object] : []; });

export const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export const asNumber = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
