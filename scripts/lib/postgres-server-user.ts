/**
 * The system user the embedded PostgreSQL runs as. PostgreSQL refuses to run
 * as root, so as root it runs as a `postgres` user (made here when missing);
 * otherwise as ourselves. A folder we can use is not always one that user can
 * enter: a clone in a 0700 folder, a private TMPDIR.
 */
import { spawnSync } from "node:child_process";
import { EmbeddedPostgresStartError } from "./postgres-start-error";

export interface ServerUser {
  name: string;
  /** Set only when the server runs as another user than ours (we are root). */
  ids?: { uid: number; gid: number };
}

const NAME = "postgres";

function idsOf(name: string): { uid: number; gid: number } | null {
  const uid = spawnSync("id", ["-u", name], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", name], { encoding: "utf8" });
  if (uid.status !== 0 || gid.status !== 0) return null;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Another process may be making the same user at the same moment: a failure is final only if the user is still missing. */
function createUser(): { uid: number; gid: number } {
  const group = spawnSync("groupadd", ["--force", "--system", NAME], { encoding: "utf8" });
  const user = spawnSync(
    "useradd",
    ["--system", "--gid", NAME, "--no-create-home", "--shell", "/usr/sbin/nologin", NAME],
    {
      encoding: "utf8",
    },
  );
  const ids = idsOf(NAME);
  if (ids) return ids;
  const said = [group, user]
    .map((result) => (result.error ? result.error.message : result.stderr.trim()))
    .filter(Boolean)
    .join("; ");
  throw new EmbeddedPostgresStartError(
    `we run as root, PostgreSQL refuses to, and the system user "${NAME}" to run it as could not be made (${said || "no reason given"})`,
    `Make it yourself (\`useradd --system ${NAME}\`) or run as an ordinary user`,
    null,
  );
}

export function serverUser(): ServerUser {
  if (process.getuid?.() !== 0) return { name: process.env.USER ?? "the current user" };
  return { name: NAME, ids: idsOf(NAME) ?? createUser() };
}

/** Whether the server's user can enter `dir` (and, with `write`, make files in it). */
export function canEnter(user: ServerUser, dir: string, write = false): boolean {
  if (!user.ids) return true;
  const test = write ? 'test -d "$1" && test -x "$1" && test -w "$1"' : 'test -d "$1" && test -x "$1"';
  return spawnSync("/bin/sh", ["-c", test, "sh", dir], { ...user.ids, stdio: "ignore", cwd: "/" }).status === 0;
}
