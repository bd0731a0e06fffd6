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
import { stopCostOf, type OddsStanding, type SettledBucket, type StopCost } from "../../odds/standing";

const OUTCOME_STAGE: Record<SettledBucket, "stage.delivered" | "stage.returned" | "stage.cancelled"> = {
  delivered: "stage.delivered",
  returned: "stage.returned",
  call_cancelled: "stage.cancelled",
  rejected: "stage.cancelled",
  parcel_cancelled: "stage.cancelled",
};

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
export function OddsCell({ odds, standing }: { odds: OddsView | null; standing: OddsStanding }) {
  const t = useT();
  const format = useFormat();
  if (!odds) return <span data-cell="odds">–</span>;
  // A cancelled order has no value to gain; a settled one's odds were an estimate before sending.
  if (standing.kind === "stop" || standing.kind === "cancelled")
    return (
      <span data-cell="odds" data-standing={standing.kind}>
        <Text as="span" variant="bodySm" tone={standing.kind === "stop" ? "critical" : "subdued"} breakWord>
          {t(standing.kind === "stop" ? "odds.list.stop" : "odds.list.cancelled")}
        </Text>
      </span>
    );
  if (standing.kind === "settled")
    return (
      <span data-cell="odds" data-standing="settled">
        <BlockStack gap="050">
          <Text as="span" numeric fontWeight="semibold">
            {format.percent(odds.probability)}
          </Text>
          <Text as="span" variant="bodySm" tone="subdued">
            {t("odds.settled.estimate")}
          </Text>
        </BlockStack>
      </span>
    );
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

/** What a parcel out and back costs: the platform's fee each way, plus the merchant's own cost when set. */
function returnCostText(t: Translate, format: Formatter, shipped: boolean, cost: StopCost): string {
  const own = cost.ownCents === null ? null : format.money(cost.ownCents);
  if (cost.feeCents === null || cost.totalCents === null)
    return own === null ? t("odds.stop.feeUnknown") : t("odds.stop.feeUnknown.own", { own });
  const params = { cost: format.money(cost.totalCents), fee: format.money(cost.feeCents) };
  const key = shipped ? "odds.stop.shipped" : "odds.stop.before";
  return own === null ? t(key, params) : t(`${key}.own`, { ...params, own });
}

/** The order page's card. */
/** What the card says of an order with nothing left to gain: stop it (and what a return costs), or nothing to send. */
function NothingToGain({
  standing,
  deliveryFeeCents,
  refusalCostCents,
}: {
  standing: Extract<OddsStanding, { kind: "stop" | "cancelled" }>;
  deliveryFeeCents: number | null;
  refusalCostCents: number;
}) {
  const t = useT();
  const format = useFormat();
  const badge = standing.kind === "stop" ? standing.why : "cancelled";
  return (
    <Card>
      <section aria-labelledby="delivery-odds-title" data-card="delivery-odds" data-standing={standing.kind}>
        <BlockStack gap="300">
          <InlineStack align="space-between" blockAlign="center" gap="200">
            <Text as="h2" variant="headingMd" id="delivery-odds-title">
              {t("odds.card.title")}
            </Text>
            <span data-odds-badge={badge}>
              <Badge tone={standing.kind === "stop" ? "critical" : undefined}>{t(`odds.badge.${badge}`)}</Badge>
            </span>
          </InlineStack>
          {standing.kind === "stop" ? (
            <BlockStack gap="100">
              <Text as="p" fontWeight="semibold" tone="critical">
                <span data-odds="value">{t(`odds.stop.title.${standing.why}`)}</span>
              </Text>
              <Text as="p">
                <span data-odds="return-cost">
                  {returnCostText(t, format, standing.shipped, stopCostOf(deliveryFeeCents, refusalCostCents))}
                </span>
              </Text>
            </BlockStack>
          ) : (
            <Text as="p" tone="subdued">
              <span data-odds="value">{t("odds.cancelled")}</span>
            </Text>
          )}
        </BlockStack>
      </section>
    </Card>
  );
}

export function DeliveryOddsCard({
  view,
  standing,
  deliveryFeeCents,
}: {
  view: OrderOddsView;
  standing: OddsStanding;
  deliveryFeeCents: number | null;
}) {
  const t = useT();
  const format = useFormat();
  const { odds, hold } = view;
  if (standing.kind === "stop" || standing.kind === "cancelled")
    return (
      <NothingToGain standing={standing} deliveryFeeCents={deliveryFeeCents} refusalCostCents={view.refusalCostCents} />
    );
  const settled = standing.kind === "settled" ? standing : null;
  return (
    <Card>
      <section aria-labelledby="delivery-odds-title" data-card="delivery-odds">
        <BlockStack gap="300">
          <InlineStack align="space-between" blockAlign="center" gap="200">
            <Text as="h2" variant="headingMd" id="delivery-odds-title">
              {t("odds.card.title")}
            </Text>
            {settled ? null : <LevelBadge odds={odds} />}
          </InlineStack>
          <BlockStack gap="100">
            <InlineStack gap="200" blockAlign="baseline">
              <Text as="p" variant="heading2xl" numeric>
                <span data-odds="probability">{format.percent(odds.probability)}</span>
              </Text>
              <Text as="span" tone="subdued">
                {t(settled ? "odds.settled.estimate" : "odds.card.chance")}
              </Text>
            </InlineStack>
            <Text as="p" variant="bodySm" tone="subdued">
              {t("odds.card.shopRate", { rate: format.percent(view.shopRate) })}
            </Text>
          </BlockStack>
          {settled ? (
            <Text as="p" fontWeight="semibold">
              <span data-odds="value">{t("odds.settled.outcome", { outcome: t(OUTCOME_STAGE[settled.outcome]) })}</span>
            </Text>
          ) : odds.valueCents !== null && odds.marginCents !== null && odds.lossCents !== null ? (
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
          {hold && !settled ? (
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
