import { Prisma } from "@prisma/client";
import { describe, expect, it } from "vitest";
import { isDatabaseBusy, retryWhileBusy } from "../../app/db/sqlite-busy";

// The shape Prisma 6.19 gives SQLITE_BUSY through the libsql adapter (seen in the race test).
const busyError = (originalCode = "5") =>
  new Prisma.PrismaClientKnownRequestError("Operation has timed out", {
    code: "P1008",
    clientVersion: "6.19.3",
    meta: {
      modelName: "Job",
      driverAdapterError: {
        name: "DriverAdapterError",
        cause: { originalCode, originalMessage: "SQLITE_BUSY: database is locked", kind: "SocketTimeout" },
      },
    },
  });

describe("isDatabaseBusy", () => {
  it("recognises SQLITE_BUSY and its extended codes, nothing else", () => {
    expect(isDatabaseBusy(busyError())).toBe(true);
    expect(isDatabaseBusy(busyError("517"))).toBe(true); // SQLITE_BUSY_SNAPSHOT
    expect(isDatabaseBusy(busyError("2067"))).toBe(false); // unique constraint
    expect(isDatabaseBusy(new Error("SQLITE_BUSY"))).toBe(false);
  });
});

describe("retryWhileBusy", () => {
  it("GIVEN a statement busy twice WHEN retried THEN the third try's result is returned", async () => {
    let calls = 0;
    const pauses: number[] = [];
    const result = await retryWhileBusy(
      async () => {
        if (++calls < 3) throw busyError();
        return "ok";
      },
      { random: () => 1, sleep: async (ms) => void pauses.push(ms) },
    );
    expect(result).toBe("ok");
    expect(pauses).toEqual([11, 21]);
  });

  it("gives up after the given tries, and never retries other errors", async () => {
    let calls = 0;
    const noSleep = { sleep: async () => {} };
    const alwaysBusy = async () => {
      calls++;
      throw busyError();
    };
    await expect(retryWhileBusy(alwaysBusy, { tries: 4, ...noSleep })).rejects.toThrow("timed out");
    expect(calls).toBe(4);
    let other = 0;
    await expect(retryWhileBusy(async () => Promise.reject(new Error(`boom ${++other}`)), noSleep)).rejects.toThrow(
      "boom 1",
    );
  });
});
