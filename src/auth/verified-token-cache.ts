/** How many verified tokens one process keeps; past it the oldest entry goes first. */
export const VERIFIED_TOKEN_CACHE_SIZE = 10_000;

interface Entry<T> {
  value: T;
  /** ms since the epoch: the token's `exp`; the entry is never used at or after it. */
  expiresAt: number;
  /** The key set that verified it (`KeyGeneration`); the entry is used only while that set is the current one. */
  keys: unknown;
}

/**
 * Which keys verify tokens now: a value that changes whenever the keys may have (the JWKS refetched,
 * or due for refetching), so a verification made with keys since retired is never reused.
 */
export type KeyGeneration = () => unknown;

/**
 * Tokens this process has already verified, keyed by the token's text: a signature check is most of
 * what a request's authentication costs in CPU, and a client sends the same token for its whole
 * lifetime. An entry answers only before the token's `exp` (never past it, not even within the
 * clock tolerance a full check allows) and only while the key set that verified it is still the
 * current one. Only successes are kept: a bad token is checked again each time. What a token may
 * do is not decided here: the staff row behind it is still read (or its cached identity validated)
 * on every request, so a deactivation counts at the next request whatever this cache holds.
 */
export class VerifiedTokenCache<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly generation: KeyGeneration,
    private readonly maxEntries = VERIFIED_TOKEN_CACHE_SIZE,
  ) {}

  get(token: string, now: number): T | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (now < entry.expiresAt && entry.keys === this.generation()) return entry.value;
    this.entries.delete(token);
    return undefined;
  }

  /** Keeps a verification made with `keys` (the generation read before the check began: a rotation during the check then voids it). */
  put(token: string, value: T, expiresAt: number, keys: unknown): void {
    if (keys !== this.generation()) return;
    this.entries.delete(token);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(token, { value, expiresAt, keys });
  }

  /** The current key generation, to hand to `put` with what is verified from now on. */
  currentKeys(): unknown {
    return this.generation();
  }

  get size(): number {
    return this.entries.size;
  }
}
