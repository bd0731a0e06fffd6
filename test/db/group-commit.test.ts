import { describe, expect, it } from "vitest";
import { createGroupCommit } from "../../app/db/group-commit";

/** A commit function that records each group and finishes when told to. */
function recordingCommit(options: { failOn?: (item: number) => boolean } = {}) {
  const groups: number[][] = [];
  const pending: Array<() => void> = [];
  const commit = (items: number[]) => {
    groups.push([...items]);
    return new Promise<void>((resolve, reject) => {
      pending.push(() => {
        const bad = items.find((item) => options.failOn?.(item));
        if (bad === undefined) resolve();
        else reject(new Error(`item ${bad} is bad`));
      });
    });
  };
  /** Finishes the oldest running commit and lets the next one start. */
  const finishOne = async () => {
    pending.shift()!();
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { commit, groups, finishOne, running: () => pending.length };
}

describe("group commit", () => {
  it("GIVEN nothing running WHEN one write comes THEN it is committed at once, alone", async () => {
    const c = recordingCommit();
    const write = createGroupCommit(c.commit, { maxItems: 10 });
    const done = write(1);
    expect(c.groups).toEqual([[1]]);
    await c.finishOne();
    await expect(done).resolves.toBeUndefined();
  });

  it("GIVEN a commit running WHEN more writes come THEN they wait and are committed together next", async () => {
    const c = recordingCommit();
    const write = createGroupCommit(c.commit, { maxItems: 10 });
    const settled: number[] = [];
    const writes = [1, 2, 3, 4].map((n) => write(n).then(() => settled.push(n)));
    // Only the first started; 2, 3, 4 wait for it.
    expect(c.groups).toEqual([[1]]);
    await c.finishOne();
    expect(settled).toEqual([1]);
    expect(c.groups).toEqual([[1], [2, 3, 4]]);
    // Nobody is answered before their own group is committed.
    expect(settled).not.toContain(2);
    await c.finishOne();
    await Promise.all(writes);
    expect(settled).toEqual([1, 2, 3, 4]);
  });

  it("never puts more than maxItems in one commit", async () => {
    const c = recordingCommit();
    const write = createGroupCommit(c.commit, { maxItems: 2 });
    const writes = [1, 2, 3, 4, 5].map((n) => write(n));
    while (c.running() > 0) await c.finishOne();
    await Promise.all(writes);
    expect(c.groups).toEqual([[1], [2, 3], [4, 5]]);
  });

  it("WHEN a group fails THEN its items are committed one by one and only the bad one's caller gets the error", async () => {
    const c = recordingCommit({ failOn: (item) => item === 3 });
    const write = createGroupCommit(c.commit, { maxItems: 10 });
    const outcomes = [1, 2, 3, 4].map((n) =>
      write(n).then(
        () => "ok",
        (error: Error) => error.message,
      ),
    );
    while (c.running() > 0) await c.finishOne();
    expect(await Promise.all(outcomes)).toEqual(["ok", "ok", "item 3 is bad", "ok"]);
    expect(c.groups).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
  });

  it("goes on committing after a failure", async () => {
    const c = recordingCommit({ failOn: (item) => item === 1 });
    const write = createGroupCommit(c.commit, { maxItems: 10 });
    const first = write(1).catch((error: Error) => error.message);
    await c.finishOne();
    expect(await first).toBe("item 1 is bad");
    const second = write(2);
    await c.finishOne();
    await expect(second).resolves.toBeUndefined();
  });
});
