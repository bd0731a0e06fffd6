/**
 * A sentence stored as data: a catalogue key and its parameters, which may be
 * other keys (a status, a list of steps) or money. The pipeline stores these
 * (timeline entries, an order's reason) and each page renders them in its
 * reader's language; the English rendering is stored beside them for readers
 * without a locale (Flow, exports) and for rows written before codes existed.
 * Pure.
 */
import type { Formatter } from "./format";
import type { MessageKey } from "./en";
import type { MessageValues as MessageParams } from "./message-format";

export type MessageArg =
  | string
  | number
  /** Another message (a status label, a reason). */
  | MessageRef
  /** Messages joined as a list ("a, b and c"). */
  | { list: MessageArg[] }
  /** A decimal amount of dirhams ("229.00"), written in the reader's money format. */
  | { money: string }
  /** A day ("2026-10-27") in the shop's zone, written in the reader's date format. */
  | { date: string };

export interface MessageRef {
  key: MessageKey;
  params?: Record<string, MessageArg>;
}

export interface RenderContext {
  t(key: MessageKey, params?: MessageParams): string;
  format: Formatter;
}

/** msg("timeline.text.lead_sent", { ref }) */
export const msg = (key: MessageKey, params?: Record<string, MessageArg>): MessageRef =>
  params ? { key, params } : { key };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function renderArg(arg: MessageArg, context: RenderContext): string | number {
  if (typeof arg === "string" || typeof arg === "number") return arg;
  // The same words twice say nothing more ("status tags updated" for a tag added and one removed).
  if ("list" in arg) return joinList([...new Set(arg.list.map((item) => String(renderArg(item, context))))], context);
  if ("money" in arg) return context.format.moneyText(arg.money);
  if ("date" in arg) return context.format.date(arg.date);
  return renderMessage(arg, context);
}

/** "a", "a and b", "a, b and c" with the catalogue's words. */
export function joinList(items: readonly string[], context: Pick<RenderContext, "t">): string {
  if (items.length <= 1) return items[0] ?? "";
  return context.t("common.list", {
    items: items.slice(0, -1).join(context.t("common.listSeparator")),
    last: items.at(-1)!,
  });
}

export function renderMessage(ref: MessageRef, context: RenderContext): string {
  const params: MessageParams = {};
  for (const [name, arg] of Object.entries(ref.params ?? {})) params[name] = renderArg(arg, context);
  return context.t(ref.key, params);
}

/**
 * A stored reference read back; null when it is not one or names a key this
 * build does not have (then the stored English is shown).
 */
export function parseMessageRef(value: unknown, isKey: (key: string) => key is MessageKey): MessageRef | null {
  const arg = (v: unknown, depth: number): MessageArg | undefined => {
    if (typeof v === "string" || (typeof v === "number" && Number.isFinite(v))) return v;
    if (!isRecord(v) || depth > 4) return undefined;
    if (Array.isArray(v.list)) {
      const items = v.list.map((item) => arg(item, depth + 1));
      return items.every((i) => i !== undefined) ? { list: items as MessageArg[] } : undefined;
    }
    if (typeof v.money === "string") return { money: v.money };
    if (typeof v.date === "string") return { date: v.date };
    return ref(v, depth + 1) ?? undefined;
  };
  const ref = (v: unknown, depth: number): MessageRef | null => {
    if (!isRecord(v) || typeof v.key !== "string" || !isKey(v.key)) return null;
    if (v.params === undefined) return { key: v.key };
    if (!isRecord(v.params)) return null;
    const params: Record<string, MessageArg> = {};
    for (const [name, value] of Object.entries(v.params)) {
      const parsed = arg(value, depth);
      if (parsed === undefined) return null;
      params[name] = parsed;
    }
    return { key: v.key, params };
  };
  return ref(value, 0);
}

/** Read from a JSON column; null for null, damaged JSON or an unknown key. */
export function readMessageRef(
  json: string | null | undefined,
  isKey: (key: string) => key is MessageKey,
): MessageRef | null {
  if (!json) return null;
  try {
    return parseMessageRef(JSON.parse(json) as unknown, isKey);
  } catch {
    return null;
  }
}
