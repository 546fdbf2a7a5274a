import { map, merge, Subscription } from 'rxjs';
import type { DatabaseNotifications } from '../database/database-notifications';

/** Where the identity tables' trigger announces each new identity generation (see the identity-generation migration). */
export const IDENTITY_CHANGED_CHANNEL = 'vigil_identity_changed';

/** Past this many cached identities the cache starts again empty: a bound, never reached by a real staff directory. */
const MAX_ENTRIES = 10_000;

type Event = { kind: 'changed'; generation: number } | { kind: 'listening'; up: boolean };

/**
 * The staff identities this process has read (a staff row with its care teams), answered again
 * without a statement while nothing about any identity has changed. Fail closed, three ways:
 * - every change to an identity table moves the identity generation and is announced on
 *   `IDENTITY_CHANGED_CHANNEL`; hearing it empties the cache;
 * - a read may answer from the cache only when the generation it read in its opening round trip is
 *   the one this process last heard: a change committed before the read whose notification has not
 *   arrived yet makes the read look the identity up itself, so a deactivation committed before a
 *   request's read is honoured by that request, as when every request read its identity;
 * - while the notification connection is down, and until the generation is read again once it is
 *   back, nothing is answered from the cache (a notification may have been missed).
 * Opened on first use, so a process that serves no request (the worker, a command) never listens.
 */
export class IdentityCache<T extends object> {
  private readonly entries = new Map<string, T>();
  /** The generation this process has heard up to, while listening; null: answer nothing from the cache. */
  private heard: number | null = null;
  /** The highest generation announced since the connection came back (the catch-up read may be older). */
  private announced = -1;
  private listening = false;
  /** Moves on every loss and return of the connection, so a catch-up read of an older connection is dropped. */
  private connection = 0;
  private catchingUp = false;
  private subscription: Subscription | null = null;

  constructor(
    private readonly notifications: DatabaseNotifications,
    /** The current identity generation, read on a connection of the pool. */
    private readonly currentGeneration: () => Promise<number>,
  ) {}

  /** True when a read should fetch the generation with its opening (the cache may answer it). */
  usable(): boolean {
    this.start();
    if (this.listening && this.heard === null) this.catchUp();
    return this.heard !== null;
  }

  /** The cached identity under `key` for a read that saw `generation`, if the cache may answer it. */
  get(key: string, generation: number): T | undefined {
    return this.heard !== null && generation === this.heard ? this.entries.get(key) : undefined;
  }

  /** Keeps an identity read at `generation`, only if that is still the generation heard. */
  put(key: string, identity: T, generation: number): void {
    if (this.heard === null || generation !== this.heard) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, deepFreeze(identity));
  }

  stop(): void {
    this.subscription?.unsubscribe();
    this.subscription = null;
    this.forget();
    this.listening = false;
  }

  private start(): void {
    if (this.subscription) return;
    const changes = this.notifications.on(IDENTITY_CHANGED_CHANNEL).pipe(map((payload): Event => ({ kind: 'changed', generation: Number(payload) })));
    const state = this.notifications.listening(IDENTITY_CHANGED_CHANNEL).pipe(map((up): Event => ({ kind: 'listening', up })));
    this.subscription = merge(changes, state).subscribe((event) => this.handle(event));
  }

  private handle(event: Event): void {
    if (event.kind === 'listening') {
      this.forget();
      this.listening = event.up;
      this.connection += 1;
      this.announced = -1;
      if (event.up) this.catchUp();
      return;
    }
    this.entries.clear();
    if (!Number.isSafeInteger(event.generation)) return this.forget();
    this.announced = Math.max(this.announced, event.generation);
    if (this.heard !== null) this.heard = Math.max(this.heard, event.generation);
  }

  /** Once listening: reads the generation now, after which every change is one this process will hear. */
  private catchUp(): void {
    if (this.catchingUp) return;
    this.catchingUp = true;
    const connection = this.connection;
    this.currentGeneration().then(
      (generation) => {
        this.catchingUp = false;
        if (connection !== this.connection || !this.listening) return;
        this.entries.clear();
        this.heard = Math.max(generation, this.announced);
      },
      // Stays closed; the next request tries again.
      () => void (this.catchingUp = false),
    );
  }

  private forget(): void {
    this.heard = null;
    this.entries.clear();
  }
}

/** A cached identity is shared by every request that reads it: none may change it. */
function deepFreeze<T extends object>(value: T): T {
  for (const field of Object.values(value)) if (field && typeof field === 'object') deepFreeze(field as object);
  return Object.freeze(value);
}
