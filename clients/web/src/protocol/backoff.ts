// Reconnect delays: exponential with full jitter, capped. `random` is
// injectable so tests are deterministic.
export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  factor: number;
  random: () => number;
}

export const defaultBackoff: BackoffOptions = {
  initialMs: 500,
  maxMs: 15_000,
  factor: 2,
  random: Math.random,
};

// attempt 0 is the first retry. Jitter keeps between half and all of the
// ceiling so a whole table does not reconnect in lock-step after a restart.
export function backoffDelay(attempt: number, opts: BackoffOptions = defaultBackoff): number {
  const ceiling = Math.min(opts.maxMs, opts.initialMs * Math.pow(opts.factor, Math.max(0, attempt)));
  return Math.round(ceiling / 2 + (ceiling / 2) * opts.random());
}
