/**
 * Graceful stop on SIGTERM/SIGINT without stealing the signal from anyone else.
 *
 * Listening to a signal disables Node's default (exit), so after stopping we re-raise
 * the signal when no other listener was there to end the process (server.ts has its
 * own, which closes the HTTP server). Our listener is prepended so it sees the others
 * before their `once` wrappers remove themselves. A second signal during the stop
 * finds no listener of ours and gets the default behaviour: a forced exit.
 */
export type ShutdownSignal = "SIGTERM" | "SIGINT";

/** The slice of `process` this needs; tests pass a fake. */
export interface SignalTarget {
  readonly pid: number;
  prependListener(signal: ShutdownSignal, listener: NodeJS.SignalsListener): unknown;
  removeListener(signal: ShutdownSignal, listener: NodeJS.SignalsListener): unknown;
  listenerCount(signal: ShutdownSignal): number;
  kill(pid: number, signal: ShutdownSignal): unknown;
}

export interface ShutdownOptions {
  signals?: readonly ShutdownSignal[];
  target?: SignalTarget;
  /** What to do once stopped; default: re-raise the signal unless someone else handles it. */
  afterStop?: (signal: ShutdownSignal, othersListening: boolean) => void;
  onError?: (error: unknown) => void;
}

/** Calls `stop` on the first shutdown signal. Returns a function that unsubscribes. */
export function stopOnShutdownSignal(stop: () => Promise<void>, options: ShutdownOptions = {}): () => void {
  const target: SignalTarget = options.target ?? process;
  const signals = options.signals ?? ["SIGTERM", "SIGINT"];
  const unsubscribe = () => signals.forEach((s) => target.removeListener(s, onSignal));
  const afterStop =
    options.afterStop ??
    ((signal: ShutdownSignal, othersListening: boolean) => {
      if (!othersListening) target.kill(target.pid, signal);
    });

  function onSignal(signal: NodeJS.Signals) {
    if (signal !== "SIGTERM" && signal !== "SIGINT") return;
    unsubscribe();
    const othersListening = target.listenerCount(signal) > 0;
    stop()
      .catch((error: unknown) => (options.onError ?? console.error)(error))
      .finally(() => afterStop(signal, othersListening));
  }

  signals.forEach((s) => target.prependListener(s, onSignal));
  return unsubscribe;
}
