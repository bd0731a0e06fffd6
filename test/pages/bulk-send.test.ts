/**
 * The confirmation before a bulk send states what goes: how many, how much, and how old
 * the oldest of those that go is; the orders older than the shop's limit wait and are
 * said apart, so their age is never given as the age of what is sent.
 */
import { describe, expect, it } from "vitest";
import { bulkFactsOf, bulkSendBody } from "../../app/components/orders/BulkSendModal";
import { formatterFor, t } from "../../app/i18n";

const DAY = 86_400_000;
const now = Date.parse("2026-11-28T16:00:00Z");
const placed = (days: number) => new Date(now - days * DAY).toISOString();
/** The paragraphs with the French no-break spaces (before ":" and in amounts) read as spaces. */
const plain = (lines: string[]) => lines.map((l) => l.replace(/[\u00a0\u202f]/g, " "));
const fr = (key: Parameters<typeof t>[1], params?: Parameters<typeof t>[2]) => t("fr", key, params);

describe("a bulk send's confirmation", () => {
  it("GIVEN three orders placed 2 and 3 days ago and one 57 days ago, the limit 7 days WHEN confirming THEN the three go, the oldest of them 3 days old, and the old one is said apart", () => {
    const facts = bulkFactsOf(
      [
        { placedAt: placed(2), amountCents: 22_900 },
        { placedAt: placed(3), amountCents: 14_900 },
        { placedAt: placed(2.5), amountCents: 20_800 },
        { placedAt: placed(57), amountCents: 17_900 },
      ],
      now,
      7,
    );
    expect(facts).toMatchObject({ count: 4, older: { count: 1, amountCents: 17_900 }, oldestMinutes: 3 * 24 * 60 });
    expect(plain(bulkSendBody(fr, formatterFor("fr"), facts)).slice(0, 2)).toEqual([
      "3 commandes, 586 MAD à encaisser ; la plus ancienne a été passée il y a 3 j.",
      "1 autre, passée il y a plus de 7 jours (179 MAD), ne part pas : elle attend votre accord dans Anomalies.",
    ]);
  });

  it("GIVEN every order older than the limit WHEN confirming THEN none goes and no age of a sent order is claimed", () => {
    const facts = bulkFactsOf([{ placedAt: placed(40), amountCents: 10_000 }], now, 7);
    expect(facts.oldestMinutes).toBeNull();
    expect(plain(bulkSendBody(fr, formatterFor("fr"), facts))[0]).toBe("0 commande, 0 MAD à encaisser.");
  });
});
