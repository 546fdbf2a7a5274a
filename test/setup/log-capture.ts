import type { DestinationStream } from 'pino';

export interface LogCapture {
  stream: DestinationStream;
  /** Every line written, raw JSON, in order. */
  lines: string[];
}

/**
 * A synchronous in-memory log destination. (A `stream.Writable` would hold back writes made in the
 * same tick, so a test could read the array before the lines arrive.)
 */
export function captureLogs(): LogCapture {
  const lines: string[] = [];
  return { lines, stream: { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)) } };
}
