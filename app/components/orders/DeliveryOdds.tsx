/**
 * An order's delivery odds, in the merchant's words: the probability that it is
 * delivered and paid, the expected value of sending it, and the reasons (each
 * raising or lowering the odds). The Orders list shows them in a cell; the order
 * page in a card, with what would send an order the shop's policy holds.
 */
import { Badge, BlockStack, Box, Card, InlineStack, Text } from "@shopify/polaris";
import type { OddsView } from "../../customers/delivery-odds.server";
import { oddsBadgeOf, type OddsBadge } from "../../odds/decision";
import { oddsReasonRef, type OddsReason } from "../../odds/explain";
import { renderMessage } from "../../i18n/message-ref";
import type { Formatter } from "../../i18n";
import { useFormat, useT, type Translate } from "../../i18n/react";
import type { OrderOddsView } from "../../pages/delivery-odds.server";

const BADGE_TONE: Record<OddsBadge, "critical" | "warning" | "success"> = {
  held: "critical",
  loss: "critical",
  below: "warning",
  usual: "success",
};

function LevelBadge({ odds }: { odds: Pick<OddsView, "level" | "held" | "valueCents"> }) {
  const t = useT();
  const badge = oddsBadgeOf(odds);
  return (
    <span data-odds-badge={badge}>
      <Badge tone={BADGE_TONE[badge]}>{t(`odds.badge.${badge}`)}</Badge>
    </span>
  );
}

/** "+85 MAD", "-12.50 MAD". */
export function signedMoney(format: Formatter, cents: number): string {
  return `${cents < 0 ? "-" : "+"}${format.money(Math.abs(cents))}`;
}

export function reasonText(t: Translate, format: Formatter, reason: OddsReason): string {
  return renderMessage(oddsReasonRef(reason), { t, format });
}

/** The Orders list's cell: the probability with its level, the value, the main reason. */
export function OddsCell({ odds }: { odds: OddsView | null }) {
  const t = useT();
  const format = useFormat();
  if (!odds) return <span data-cell="odds">–</span>;
  const [first] = odds.reasons;
  return (
    <span data-cell="odds" data-level={odds.level}>
      <BlockStack gap="050">
        <InlineStack gap="100" blockAlign="center" wrap={false}>
          <Text as="span" numeric fontWeight="semibold">
            {format.percent(odds.probability)}
          </Text>
          <LevelBadge odds={odds} />
        </InlineStack>
        {odds.valueCents !== null ? (
          <Text as="span" variant="bodySm" tone={odds.valueCents < 0 ? "critical" : "subdued"} numeric>
            {t("odds.list.value", { value: signedMoney(format, odds.valueCents) })}
          </Text>
        ) : null}
        {first ? (
          <span data-odds-reason={first.feature}>
            <Text as="span" variant="bodySm" tone="subdued" breakWord>
              {reasonText(t, format, first)}
            </Text>
          </span>
        ) : null}
      </BlockStack>
    </span>
  );
}

/** The order page's card. */
export function DeliveryOddsCard({ view }: { view: OrderOddsView }) {
  const t = useT();
  const format = useFormat();
  const { odds, hold } = view;
  return (
    <Card>
      <section aria-labelledby="delivery-odds-title" data-card="delivery-odds">
        <BlockStack gap="300">
          <InlineStack align="space-between" blockAlign="center" gap="200">
            <Text as="h2" variant="headingMd" id="delivery-odds-title">
              {t("odds.card.title")}
            </Text>
            <LevelBadge odds={odds} />
          </InlineStack>
          <BlockStack gap="100">
            <InlineStack gap="200" blockAlign="baseline">
              <Text as="p" variant="heading2xl" numeric>
                <span data-odds="probability">{format.percent(odds.probability)}</span>
              </Text>
              <Text as="span" tone="subdued">
                {t("odds.card.chance")}
              </Text>
            </InlineStack>
            <Text as="p" variant="bodySm" tone="subdued">
              {t("odds.card.shopRate", { rate: format.percent(view.shopRate) })}
            </Text>
          </BlockStack>
          {odds.valueCents !== null && odds.marginCents !== null && odds.lossCents !== null ? (
            <BlockStack gap="050">
              <Text as="p" fontWeight="semibold" tone={odds.valueCents < 0 ? "critical" : undefined}>
                <span data-odds="value">{t("odds.card.value", { value: signedMoney(format, odds.valueCents) })}</span>
              </Text>
              <Text as="p" variant="bodySm" tone="subdued">
                {t("odds.card.valueDetail", {
                  margin: format.money(odds.marginCents),
                  loss: format.money(odds.lossCents),
                })}
              </Text>
            </BlockStack>
          ) : (
            <Text as="p" tone="subdued">
              <span data-odds="value">{t("odds.card.valueUnknown")}</span>
            </Text>
          )}
          <BlockStack gap="150">
            <Text as="h3" variant="headingSm">
              {t("odds.card.reasons")}
            </Text>
            {odds.reasons.length === 0 ? (
              <Text as="p" tone="subdued">
                {t("odds.card.noReason")}
              </Text>
            ) : (
              <BlockStack as="ul" gap="150">
                {odds.reasons.map((reason) => (
                  <li key={reason.feature} data-odds-reason={reason.feature}>
                    <BlockStack gap="050" inlineAlign="start">
                      <Badge tone={reason.effect < 0 ? "critical" : "success"}>
                        {t(reason.effect < 0 ? "odds.effect.lowers" : "odds.effect.raises")}
                      </Badge>
                      <Text as="span" breakWord>
                        <span data-odds-text>{reasonText(t, format, reason)}</span>
                      </Text>
                    </BlockStack>
                  </li>
                ))}
              </BlockStack>
            )}
          </BlockStack>
          {hold ? (
            <Box background="bg-surface-secondary" padding="300" borderRadius="200">
              <BlockStack gap="100">
                <Text as="h3" variant="headingSm">
                  {t("odds.release.title")}
                </Text>
                <Text as="p">
                  <span data-odds="release">
                    {hold.releaseAt !== null
                      ? t("odds.release.at", { probability: format.percent(hold.releaseAt) })
                      : t("odds.release.never", { margin: format.money(odds.marginCents ?? 0) })}
                  </span>
                </Text>
                <Text as="p" tone="subdued">
                  {t("odds.release.how")}
                </Text>
              </BlockStack>
            </Box>
          ) : null}
          <Text as="p" variant="bodySm" tone="subdued">
            {view.model.source === "fitted"
              ? t("odds.card.model.fitted", { count: view.model.settled })
              : t("odds.card.model.prior")}
          </Text>
        </BlockStack>
      </section>
    </Card>
  );
}
