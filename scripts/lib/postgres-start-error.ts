/**
 * Why the embedded PostgreSQL did not start, read from its own log: one
 * message that names the cause and the fix, and where the whole log is.
 */

export class EmbeddedPostgresStartError extends Error {
  constructor(reason: string, fix: string, logFile: string | null) {
    super(
      `PostgreSQL (embedded) could not start: ${reason}. ${fix}.` +
        (logFile ? ` The server's log is kept in ${logFile}` : ""),
    );
    this.name = "EmbeddedPostgresStartError";
    // One message wherever it is printed (vitest's global setup, the demo, a script's
    // uncaught error): the cause is in the text, not in our call stack.
    this.stack = `${this.name}: ${this.message}`;
  }
}

export interface StartContext {
  port: number;
  /** The cluster's folder (PGDATA). */
  dataDir: string;
  /** The system user the server runs as. */
  user: string;
}

interface Diagnosis {
  cause: string;
  fix: string;
}

type Reading = (line: string, context: StartContext) => Diagnosis | null;

/** PostgreSQL's log line when another program holds its port. */
export const PORT_TAKEN = /Address already in use/;

const READINGS: Reading[] = [
  (line, { port }) =>
    PORT_TAKEN.test(line)
      ? {
          cause: `port ${port} on 127.0.0.1 is already taken by another program`,
          fix: `Stop what listens there (\`ss -ltnp 'sport = :${port}'\` names it), or leave the port out so a free one is picked`,
        }
      : null,
  (line, { dataDir }) =>
    /lock file "postmaster\.pid" already exists/.test(line)
      ? {
          cause: `another PostgreSQL server is already running on the data folder ${dataDir}`,
          fix: `Stop it (its process id is the first line of ${dataDir}/postmaster.pid) or use another data folder`,
        }
      : null,
  (line, { dataDir }) =>
    /database files are incompatible with server/.test(line)
      ? {
          cause: `the data folder ${dataDir} was made by another PostgreSQL version`,
          fix: `Remove it (its databases are lost) to start afresh, or name another data folder`,
        }
      : null,
  (line, { dataDir }) =>
    /directory ".*" exists but is not empty/.test(line)
      ? {
          cause: `the data folder ${dataDir} holds files but no PostgreSQL cluster`,
          fix: `Empty it or name another data folder`,
        }
      : null,
  (line, { dataDir }) =>
    /has invalid permissions|has wrong ownership/.test(line)
      ? {
          cause: `the data folder ${dataDir} has the wrong owner or mode (${line.trim()})`,
          fix: `Remove it to start afresh, or give it back to its owner with mode 0700`,
        }
      : null,
  (line, { user }) =>
    /Permission denied/.test(line)
      ? {
          cause: `the server's user (${user}) was refused a file: ${line.trim()}`,
          fix: `Make that folder and every folder above it enterable by ${user} (chmod o+x), or keep the data folder elsewhere`,
        }
      : null,
  (line) =>
    /could not create shared memory segment|could not map anonymous shared memory|No space left on device/.test(line)
      ? {
          cause: `the system refused the server memory or disk space (${line.trim()})`,
          fix: `Free some memory or disk space (other PostgreSQL servers left running are a usual cause) and try again`,
        }
      : null,
];

/** The last lines of a log worth quoting (PostgreSQL's FATAL/ERROR lines first). */
function lastTelling(lines: string[]): string | undefined {
  const telling = lines.filter((line) => /FATAL|ERROR|PANIC|error|cannot|could not/i.test(line));
  return (telling.at(-1) ?? lines.at(-1))?.trim();
}

/** The cause and fix a failed start's log tells; a generic reading quoting its last telling line otherwise. */
export function diagnoseStart(log: string, context: StartContext, exit: string): Diagnosis {
  if (/could not be run \(spawn .*\bE(ACCES|NOENT)\)/.test(exit)) {
    return {
      cause: `the server's user (${context.user}) cannot run its binaries: ${exit}`,
      fix: "Run `npm install` again (it brings the binaries); as root, check that /var/cache/cod-lead-sync is readable by all",
    };
  }
  const lines = log.split("\n").filter((line) => line.trim() !== "");
  for (const line of lines) {
    for (const read of READINGS) {
      const found = read(line, context);
      if (found) return found;
    }
  }
  const last = lastTelling(lines);
  return {
    cause: last ? `${exit}; its log ends with "${last}"` : exit,
    fix: "The log says more",
  };
}
