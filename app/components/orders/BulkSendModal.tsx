/**
 * The one confirmation before anything sends more than one order (a group on
 * Anomalies, the orders a fix freed, a selection or every failed order on the
 * Orders list, an import of past orders): how many, how old, how much money,
 * and which of them wait for the merchant's word because they were placed longer
 * ago than the shop's limit (models/stale-order.ts), or, when those are what is
 * sent, that they are old.
 */
import type { Formatter } from "../../i18n";
import { useFormat, useT, type Translate } from "../../i18n/react";
import { ConfirmModal } from "../ConfirmModal";
import { ageText } from "../home/InboxCard";

export interface BulkSendFacts {
  /** Orders the action covers. */
  count: number;
  /** Their amount to collect, in cents. */
  amountCents: number;
  /**
   * How long ago the oldest of the orders that go was placed, in minutes (those waiting for the
   * merchant's word are older, and said apart); null when not known.
   */
  oldestMinutes: number | null;
  /** Of them, placed longer ago than the limit: they wait for the merchant's word instead of going. */
  older: { count: number; amountCents: number };
  /** The shop's limit, in days. */
  limitDays: number;
  /** What is sent are orders older than the limit, knowingly: they all go. */
  stale?: boolean;
}

/** One order of a bulk send, as the confirmation counts it. */
export interface BulkOrder {
  /** When it was placed (ISO). */
  placedAt: string;
  amountCents: number | null;
  /** Known by the server (an approval it holds); else read from placedAt and the limit. */
  olderThanLimit?: boolean;
}

const DAY_MS = 86_400_000;

/** The facts of a list of orders the browser holds (a selection, the orders a fix freed). Pure. */
export function bulkFactsOf(orders: readonly BulkOrder[], now: number, limitDays: number): BulkSendFacts {
  const placed = (o: BulkOrder) => Date.parse(o.placedAt);
  const isOlder = (o: BulkOrder) => o.olderThanLimit ?? now - placed(o) > limitDays * DAY_MS;
  const older = orders.filter(isOlder);
  const oldest = orders
    .filter((o) => !isOlder(o))
    .reduce<number | null>((min, o) => (min === null || placed(o) < min ? placed(o) : min), null);
  const cents = (list: readonly BulkOrder[]) => list.reduce((s, o) => s + (o.amountCents ?? 0), 0);
  return {
    count: orders.length,
    amountCents: cents(orders),
    oldestMinutes: oldest === null ? null : Math.max(0, Math.floor((now - oldest) / 60_000)),
    older: { count: older.length, amountCents: cents(older) },
    limitDays,
  };
}

/** How many orders actually go. */
export const goingCount = (facts: BulkSendFacts): number =>
  facts.stale ? facts.count : Math.max(0, facts.count - facts.older.count);

/** The confirmation's paragraphs. Pure. */
export function bulkSendBody(t: Translate, format: Formatter, facts: BulkSendFacts): string[] {
  const going = goingCount(facts);
  const amount = facts.stale ? facts.amountCents : facts.amountCents - facts.older.amountCents;
  const body = [
    facts.oldestMinutes === null
      ? t("bulk.summary", { count: going, orders: format.integer(going), amount: format.money(amount) })
      : t("bulk.summaryOldest", {
          count: going,
          orders: format.integer(going),
          amount: format.money(amount),
          age: ageText(format, t, facts.oldestMinutes),
        }),
  ];
  if (facts.stale) body.push(t("bulk.staleWarning", { days: facts.limitDays }));
  else if (facts.older.count > 0)
    body.push(
      t("bulk.olderWait", {
        count: facts.older.count,
        orders: format.integer(facts.older.count),
        amount: format.money(facts.older.amountCents),
        days: facts.limitDays,
      }),
    );
  body.push(t("bulk.what"));
  return body;
}

export function BulkSendModal({
  id,
  open,
  facts,
  intro = [],
  busy,
  onConfirm,
  onClose,
}: {
  id: string;
  open: boolean;
  facts: BulkSendFacts | null;
  /** What the orders are, before the figures (the orders a fix freed, by name). */
  intro?: string[];
  busy: boolean;
  onConfirm(): void;
  onClose(): void;
}) {
  const t = useT();
  const format = useFormat();
  const going = facts ? goingCount(facts) : 0;
  return (
    <ConfirmModal
      id={id}
      open={open && facts !== null}
      title={t("bulk.title", { count: going, orders: format.integer(going) })}
      body={facts ? [...intro, ...bulkSendBody(t, format, facts)] : []}
      confirmLabel={t("bulk.confirm", { count: going, orders: format.integer(going) })}
      busy={busy}
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}
