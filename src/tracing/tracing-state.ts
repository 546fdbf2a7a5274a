/** What the rest of the process may ask of tracing once it has started (see `startTracing`). */
export interface TracingHandle {
  /** Exports the spans still buffered (at shutdown). */
  flush(): Promise<void>;
}

let active: TracingHandle | undefined;

/** Set once, by `startTracing`; undefined while tracing is off (the default). */
export function activeTracing(): TracingHandle | undefined {
  return active;
}

export function setActiveTracing(handle: TracingHandle | undefined): void {
  active = handle;
}
