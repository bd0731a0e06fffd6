/**
 * A file the demo names in its output (a log, the seller key, the database's folder), as the
 * newcomer can paste it: absolute, since `npm run demo` may be typed from any folder of the
 * clone while npm runs it from the clone's root. Pure.
 */
import { isAbsolute, resolve } from "node:path";

export function shownPath(path: string, root: string): string {
  return isAbsolute(path) ? path : resolve(root, path);
}
