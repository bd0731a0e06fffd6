/** graphile-worker's logger, told only warnings and errors (its info lines are one per job). */
import { Logger, type LogLevel } from "graphile-worker";

export function quietLogger(sink: (line: string) => void = (line) => console.error(line)): Logger {
  return new Logger(() => (level: LogLevel, message: string) => {
    if (level === "error" || level === "warning") sink(`graphile-worker ${level}: ${message}`);
  });
}
