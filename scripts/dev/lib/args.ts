/** A small argv parser: `--name value`, `--name=value`, boolean flags and positionals. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export interface ParsedArgs {
  values: Record<string, string>;
  flags: Set<string>;
  positionals: string[];
}

/** `valued` names take a value; `booleans` do not; anything else is a UsageError. */
export function parseArgs(argv: readonly string[], valued: readonly string[], booleans: readonly string[]): ParsedArgs {
  const values: Record<string, string> = {};
  const flags = new Set<string>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("--")) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (booleans.includes(name) && eq === -1) {
      flags.add(name);
    } else if (valued.includes(name)) {
      const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
      if (value === undefined || (eq === -1 && value.startsWith("--"))) throw new UsageError(`--${name} needs a value`);
      values[name] = value;
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  return { values, flags, positionals };
}

export function portArg(values: Record<string, string>, name: string, fallback: number): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new UsageError(`--${name} must be a port number (1-65535), not "${raw}"`);
  return port;
}

export function positiveArg(values: Record<string, string>, name: string, fallback: number): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} must be a positive number, not "${raw}"`);
  return n;
}
