/** Types of build-if-stale.js (plain CommonJS, so that it runs before anything is compiled). */
export function staleness(root?: string): string | undefined;
export function buildIfStale(root?: string): boolean;
