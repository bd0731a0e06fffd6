/**
 * Home's to-do inbox: what waits for the merchant now, one line per cause with its
 * count, the amount to collect at stake and how long the oldest has waited; each
 * line opens the fix (or the order itself when it is the only one).
 */
import { BlockStack, Card, Divider, InlineStack, Link, Text } from "@shopify/polaris";
import type { Inbox, InboxGroup, InboxRemainder } from "../../pages/home-inbox.server";
import type { Formatter, MessageKey } from "../../i18n";
import { useFormat, useT, type Translate } from "../../i18n/react";

/**
 * "under a minute", "12 min", "5 h", "3 d": how long the oldest order has waited. Orders that
 * came in moments ago (a fresh demo stamps its orders as it sends them) read as such, not "0 min".
 */
export function ageText(format: Formatter, t: Translate, minutes: number): string {
  if (minutes < 1) return t("home.inbox.age.underMinute");
  if (minutes < 60) return t("home.inbox.age.minutes", { count: format.integer(minutes) });
  if (minutes < 48 * 60) return t("home.inbox.age.hours", { count: format.integer(Math.floor(minutes / 60)) });
  return t("home.inbox.age.days", { count: format.integer(Math.floor(minutes / (24 * 60))) });
}

/** The line's words, in the plural form its count takes. */
export function inboxLabel(
  t: Translate,
  item: Pick<InboxGroup, "cause" | "count"> | Pick<InboxRemainder, "state" | "count">,
): string {
  const key = "cause" in item ? `home.inbox.cause.${item.cause}` : `home.inbox.more.${item.state}`;
  return t(key as MessageKey, { count: item.count });
}

function InboxLine({
  label,
  href,
  amountCents,
  fees,
  unknownAmounts = 0,
  count,
  oldestMinutes,
  dataKey,
}: {
  label: string;
  href: string;
  amountCents: number;
  /** Orders of the line without an amount in dirhams. */
  unknownAmounts?: number;
  count: number;
  /** Sent orders that cost money: the fees at stake instead of an amount to collect. */
  fees?: InboxGroup["fees"];
  oldestMinutes: number;
  dataKey: string;
}) {
  const t = useT();
  const format = useFormat();
  const stake = fees
    ? fees.cents > 0
      ? t("home.inbox.feesAtStake", { amount: format.money(fees.cents) })
      : t("home.inbox.feesUnknown")
    : unknownAmounts >= count
      ? t("home.inbox.amountUnknown")
      : t("home.inbox.atStake", { amount: format.money(amountCents) });
  return (
    <li data-inbox={dataKey} style={{ listStyle: "none", margin: 0 }}>
      <InlineStack align="space-between" blockAlign="center" gap="300">
        <Link url={href} removeUnderline>
          <Text as="span" fontWeight="semibold" tone={fees ? "critical" : undefined}>
            {label}
          </Text>
        </Link>
        <InlineStack gap="400" blockAlign="center">
          <Text as="span" numeric>
            <span data-inbox-amount>{stake}</span>
          </Text>
          <Text as="span" tone="subdued" variant="bodySm">
            <span data-inbox-age>{t("home.inbox.waiting", { age: ageText(format, t, oldestMinutes) })}</span>
          </Text>
        </InlineStack>
      </InlineStack>
    </li>
  );
}

export function InboxCard({ inbox }: { inbox: Inbox }) {
  const t = useT();
  const format = useFormat();
  const empty = inbox.groups.length === 0 && inbox.more.length === 0;
  return (
    <section aria-labelledby="home-inbox-title" data-section="inbox">
      <Card>
        <BlockStack gap="300">
          <BlockStack gap="100">
            <Text as="h2" variant="headingMd" id="home-inbox-title">
              {t("home.inbox.title")}
            </Text>
            <Text as="p" tone={empty ? "success" : "subdued"}>
              <span data-inbox-total>
                {empty
                  ? t("home.inbox.nothing")
                  : t("home.inbox.total", { count: inbox.total.count, amount: format.money(inbox.total.amountCents) })}
              </span>
            </Text>
          </BlockStack>
          {empty ? null : (
            <>
              <Divider />
              <BlockStack as="ul" gap="300">
                {inbox.groups.map((group) => (
                  <InboxLine
                    key={group.cause}
                    dataKey={group.cause}
                    label={inboxLabel(t, group)}
                    href={group.href}
                    amountCents={group.amountCents}
                    fees={group.fees}
                    unknownAmounts={group.unknownAmounts}
                    count={group.count}
                    oldestMinutes={group.oldestMinutes}
                  />
                ))}
                {inbox.more.map((more) => (
                  <InboxLine
                    key={more.state}
                    dataKey={`more-${more.state}`}
                    label={inboxLabel(t, more)}
                    href={more.href}
                    count={more.count}
                    amountCents={more.amountCents}
                    oldestMinutes={more.oldestMinutes}
                  />
                ))}
              </BlockStack>
            </>
          )}
        </BlockStack>
      </Card>
    </section>
  );
}
