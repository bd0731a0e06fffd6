/**
 * The process log (app/runtime/logger.server.ts) captured for each test of a file: the
 * process logger is replaced by one writing to memory, then put back. Call at the top of
 * the file; the result reads the lines written since the test began.
 */
import { afterEach, beforeEach } from "vitest";
import { createLogger } from "../../app/runtime/logger.server";

export function useCapturedLog(level: "debug" | "info" = "info"): () => string[] {
  let lines: string[] = [];
  let saved: typeof globalThis.__codLeadSyncLogger;
  beforeEach(() => {
    saved = globalThis.__codLeadSyncLogger;
    lines = [];
    const logger = createLogger({ level, destination: { write: (chunk: string) => void lines.push(chunk) } });
    globalThis.__codLeadSyncLogger = { logger, role: "web" };
  });
  afterEach(() => {
    globalThis.__codLeadSyncLogger = saved;
  });
  return () => lines;
}
