/**
 * Group commit: writes that arrive while a commit is running commit together in
 * the next one; with nothing running a write starts at once. A transaction costs
 * far more than a row (docs/decisions/0006-webhook-group-commit.md).
 *
 * Each caller's promise settles with its own outcome: when a group fails, its
 * items are committed again one by one, so one bad item cannot fail the
 * others, and the error a caller sees is the one its own item caused.
 */
export interface GroupCommitOptions {
  /** The most items in one commit (keeps statements under the database's bound-parameter limit). */
  maxItems: number;
}

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export function createGroupCommit<T>(commit: (items: T[]) => Promise<unknown>, options: GroupCommitOptions) {
  const waiting: Waiting<T>[] = [];
  let running = false;

  async function commitGroup(group: Waiting<T>[]) {
    try {
      await commit(group.map((w) => w.item));
      for (const w of group) w.resolve();
    } catch (error) {
      if (group.length === 1) {
        for (const w of group) w.reject(error);
        return;
      }
      for (const w of group) await commitGroup([w]);
    }
  }

  async function run() {
    running = true;
    try {
      while (waiting.length > 0) await commitGroup(waiting.splice(0, options.maxItems));
    } finally {
      running = false;
    }
  }

  return function write(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (!running) void run();
    });
  };
}
