/**
 * The period's key figures, money first (net collected, seller profit, owed by
 * the platform), then the confirmation, delivery and return rates; each with its
 * change against the previous period (arrow and words, coloured by whether the
 * move is good news) and the previous value.
 */
import type { ReactNode } from "react";
import { BlockStack, Card, InlineGrid, Text } from "@shopify/polaris";
import { useFormat, useT, type Translate } from "../../i18n/react";
import type { Formatter, MessageKey } from "../../i18n";
import { amountChange, rateChange, type Change, type Rate, type Summary } from "../../analytics/report";
import type { CashForPeriod } from "../../analytics/cash-report.server";
import { days, integer, money, percent } from "./format";
import { RateText } from "./RateText";
import { PhoneInset } from "../PhoneInset";

/** The change's words: "↑ 12.4%", "↓ 3.2 pts", "No change", "New this period"; null when there is nothing to compare. */
export function changeText(format: Formatter, t: Translate, change: Change): string | null {
  switch (change.kind) {
    case "relative":
      return t(change.ratio > 0 ? "analytics.change.up" : "analytics.change.down", {
        value: format.percent(Math.abs(change.ratio)),
      });
    case "points": {
      const tenths = Math.round(Math.abs(change.points) * 10) / 10;
      return t(change.points > 0 ? "analytics.change.up" : "analytics.change.down", {
        value: t("analytics.change.points", { value: format.decimal(tenths, Number.isInteger(tenths) ? 0 : 1) }),
      });
    }
    case "new":
      return t("analytics.change.new");
    case "same":
      return t("analytics.change.same");
    case "none":
      return null;
  }
}

type Tone = "success" | "critical" | "subdued";
/** Good news in green, bad news in red; the words carry the direction too. */
function toneOf(change: Change, higherIsBetter: boolean): Tone {
  const up = change.kind === "relative" ? change.ratio > 0 : change.kind === "points" ? change.points > 0 : null;
  if (up === null) return "subdued";
  return up === higherIsBetter ? "success" : "critical";
}

function Figure({
  id,
  label,
  value,
  change,
  higherIsBetter,
  previous,
}: {
  id: string;
  label: string;
  value: ReactNode;
  change: Change;
  higherIsBetter: boolean;
  previous: string;
}) {
  const t = useT();
  const format = useFormat();
  const text = changeText(format, t, change);
  return (
    <Card>
      <BlockStack gap="100">
        <Text as="h3" variant="headingSm" tone="subdued">
          {label}
        </Text>
        <Text as="p" variant="headingLg">
          <span data-figure={id}>{value}</span>
        </Text>
        <Text as="p" variant="bodySm">
          {text ? (
            <Text as="span" tone={toneOf(change, higherIsBetter)} fontWeight="semibold">
              <span data-change={id}>{text}</span>
            </Text>
          ) : null}
          {text ? " " : ""}
          <Text as="span" tone="subdued">
            <span data-previous={id}>{t("analytics.change.against", { previous })}</span>
          </Text>
        </Text>
      </BlockStack>
    </Card>
  );
}

export function KeyFigures({ current, previous, cash }: { current: Summary; previous: Summary; cash: CashForPeriod }) {
  const t = useT();
  const format = useFormat();
  const moneyFigure = (id: string, label: MessageKey, now: number, before: number, higherIsBetter: boolean) => (
    <Figure
      id={id}
      label={t(label)}
      value={money(format, now)}
      change={amountChange(now, before)}
      higherIsBetter={higherIsBetter}
      previous={money(format, before)}
    />
  );
  const rateFigure = (
    id: string,
    label: MessageKey,
    now: Rate,
    before: Rate,
    of: MessageKey,
    higherIsBetter: boolean,
  ) => (
    <Figure
      id={id}
      label={t(label)}
      value={<RateText rate={now} of={of} />}
      change={rateChange(now, before)}
      higherIsBetter={higherIsBetter}
      previous={percent(format, t, before)}
    />
  );
  return (
    <BlockStack gap="200">
      <PhoneInset>
        <Text as="h2" variant="headingMd">
          {t("analytics.figures.title")}
        </Text>
      </PhoneInset>
      <InlineGrid columns={{ xs: 1, sm: 3 }} gap="300">
        {moneyFigure(
          "collected",
          "analytics.figure.netCollected",
          current.collectedCents,
          previous.collectedCents,
          true,
        )}
        {moneyFigure("profit", "analytics.figure.profit", current.profitCents, previous.profitCents, true)}
        {moneyFigure(
          "owed",
          "analytics.figure.owed",
          cash.current.owedAtEnd.profitCents,
          cash.previous.owedAtEnd.profitCents,
          false,
        )}
      </InlineGrid>
      <InlineGrid columns={{ xs: 1, sm: 3 }} gap="300">
        {rateFigure(
          "confirmationRate",
          "analytics.figure.confirmationRate",
          current.confirmationRate,
          previous.confirmationRate,
          "analytics.rate.confirmedOfSent",
          true,
        )}
        {rateFigure(
          "deliveryRate",
          "analytics.figure.deliveryRate",
          current.deliveryRate,
          previous.deliveryRate,
          "analytics.rate.deliveredOfShipped",
          true,
        )}
        {rateFigure(
          "returnRate",
          "analytics.figure.returnRate",
          current.returnRate,
          previous.returnRate,
          "analytics.rate.returnedOfShipped",
          false,
        )}
      </InlineGrid>
      <PhoneInset>
        <BlockStack gap="200">
          <Text as="p" variant="bodySm" tone="subdued">
            <span data-figure="more">
              {t("analytics.figures.more", {
                orders: integer(format, current.steps.orders),
                previousOrders: integer(format, previous.steps.orders),
                days: days(format, t, current.medianDeliveryDays),
                previousDays: days(format, t, previous.medianDeliveryDays),
              })}
            </span>
          </Text>
          <Text as="p" variant="bodySm" tone="subdued">
            {t("analytics.figures.definitions")}
          </Text>
        </BlockStack>
      </PhoneInset>
    </BlockStack>
  );
}
