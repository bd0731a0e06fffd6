/**
 * Home's sync ledger card: the last 24 hours of orders in Shopify against the orders the
 * app accounted for, what the reconciliation recovered, the latencies, and the week's
 * verdict on the published promise. The whole ledger is on Activity.
 */
import { Badge, BlockStack, Box, Card, InlineStack, Link, Text } from "@shopify/polaris";
import { useFormat, useT } from "../../i18n/react";
import {
  accountedBadge,
  countText,
  ledgerTime,
  promiseSentence,
  promiseVerdict,
  withinText,
} from "../sync-ledger/text";
import type { LedgerOnPage } from "../../pages/sync-ledger-times";

export const SYNC_LEDGER_ANCHOR = "/app/activity#sync-ledger";

export function SyncLedgerCard({ ledger }: { ledger: LedgerOnPage }) {
  const t = useT();
  const format = useFormat();
  const day = ledger.windows.day;
  const verdict = promiseVerdict(ledger.windows.week.promise);
  const badge = accountedBadge(t, day);
  const n = (value: number) => format.integer(value);
  const within = (seconds: number | null) => withinText(format, t, seconds);
  const leads =
    day.leadP95 === null
      ? t("syncLedger.latency.none")
      : t("syncLedger.latency.leads", { p50: within(day.leadP50), p95: within(day.leadP95) });
  const latencyText =
    day.statusP95 === null
      ? leads
      : t("syncLedger.joined", {
          first: leads,
          second: t("syncLedger.latency.status", { p95: within(day.statusP95) }),
        });
  return (
    <Card>
      <div data-sync-ledger="home">
        <BlockStack gap="300">
          <InlineStack align="space-between" blockAlign="center" gap="200">
            <Text as="h2" variant="headingMd">
              {t("syncLedger.title")}
            </Text>
            <span data-promise-verdict={verdict.verdict}>
              <Badge tone={verdict.tone}>{t(verdict.key)}</Badge>
            </span>
          </InlineStack>
          {!ledger.started ? (
            <Text as="p" tone="subdued">
              {t("syncLedger.notStarted", { interval: within(ledger.intervalSeconds) })}
            </Text>
          ) : (
            <BlockStack gap="200">
              <Text as="p" variant="bodySm" tone="subdued">
                <span data-ledger-window="day">
                  {t("syncLedger.windowCounted", {
                    window: day.from
                      ? t("syncLedger.placedSince", { from: ledgerTime(format, ledger, day.from) })
                      : t("syncLedger.lastDay"),
                    time: ledger.countedAt ? ledgerTime(format, ledger, ledger.countedAt) : t("syncLedger.never"),
                  })}
                </span>
              </Text>
              <InlineStack gap="400" blockAlign="center" wrap>
                <Text as="p">
                  {t("syncLedger.label", { label: t("syncLedger.inShopify") })}{" "}
                  <Text as="span" fontWeight="semibold">
                    {countText(format, t, day.shopify)}
                  </Text>
                </Text>
                <Text as="p">
                  {t("syncLedger.label", { label: t("syncLedger.accounted") })}{" "}
                  <Text as="span" fontWeight="semibold">
                    {n(day.app.total)}
                  </Text>
                </Text>
                {badge ? (
                  <span data-accounted={day.notSeen === 0 ? "all" : "missing"}>
                    <Badge tone={badge.tone}>{badge.text}</Badge>
                  </span>
                ) : null}
              </InlineStack>
              <Text as="p" variant="bodySm" tone="subdued">
                <span data-ledger-breakdown="day">
                  {t("syncLedger.breakdown", {
                    sent: n(day.app.sent),
                    held: n(day.app.held),
                    refused: n(day.app.refused),
                    skipped: n(day.app.skipped),
                    cancelled: n(day.app.cancelled),
                    pending: n(day.app.pending),
                  })}
                </span>
              </Text>
              <Text as="p">
                {day.recovered > 0 && day.lastRecoveryAt
                  ? t("syncLedger.recovered.some", {
                      count: n(day.recovered),
                      time: ledgerTime(format, ledger, day.lastRecoveryAt),
                    })
                  : t("syncLedger.recovered.none")}
              </Text>
              <Text as="p">{latencyText}</Text>
            </BlockStack>
          )}
          <Box>
            <Text as="p" variant="bodySm" tone="subdued">
              {promiseSentence(format, t, ledger.promise)}
            </Text>
          </Box>
          <Link url={SYNC_LEDGER_ANCHOR}>{t("syncLedger.open")}</Link>
        </BlockStack>
      </div>
    </Card>
  );
}
