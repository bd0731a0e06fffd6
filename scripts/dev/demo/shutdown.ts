/** Stops what the demo started, last started first, once, on Ctrl-C / SIGTERM or at the end. */
export interface Shutdown {
  add(name: string, close: () => Promise<void>): void;
  run(): Promise<void>;
}

export function createShutdown(onError: (name: string, error: unknown) => void): Shutdown {
  const closers: { name: string; close: () => Promise<void> }[] = [];
  let running: Promise<void> | undefined;
  return {
    add(name, close) {
      closers.push({ name, close });
    },
    run() {
      running ??= (async () => {
        for (const { name, close } of closers.reverse()) {
          try {
            await close();
          } catch (error) {
            onError(name, error);
          }
        }
      })();
      return running;
    },
  };
}
