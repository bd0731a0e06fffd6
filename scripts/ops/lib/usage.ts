/**
 * The operator commands' arguments, read with Node's own parser (strict: an unknown option, a missing value or a
 * stray argument is refused) so production tooling needs nothing from the development scripts.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

type Options = NonNullable<ParseArgsConfig["options"]>;

export function operatorArgs<O extends Options>(argv: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    // Node's parse errors are TypeErrors coded ERR_PARSE_ARGS_*; their message names the argument.
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")) throw new UsageError((error as Error).message);
    throw error;
  }
}

/** --shop, when given, must be a shop's *.myshopify.com domain. */
export function shopArg(shop: string | undefined): string | undefined {
  if (shop !== undefined && !/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/.test(shop))
    throw new UsageError(`--shop must be a *.myshopify.com domain, not "${shop}"`);
  return shop;
}
