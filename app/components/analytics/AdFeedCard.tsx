/**
 * Analytics: what the ads were told, week by week. The orders placed (each
 * one a Purchase that Shopify's checkout told the ads of) beside the orders
 * that reached the stage the merchant counts and the events the conversion
 * feed sent each platform, with what it did not send; and the period's gap in
 * one sentence.
 */
import { BlockStack, Card, Text } from "@shopify/polaris";
import type { AdFeedReport } from "../../ad-feed/report.server";
import { NOT_SENT_STATES } from "../../ad-feed/report";
import { useFormat, useT } from "../../i18n/react";
import { weekLabel } from "./format";
import { ScrollTable } from "../ScrollTable";

export function AdFeedCard({ report }: { report: AdFeedReport }) {
  const t = useT();
  const format = useFormat();
  const stage = t(`adFeed.stage.${report.stage}`);
  const pending = report.weeks.reduce((n, w) => n + w.pending, 0);
  return (
    <div data-ad-feed-card>
      <Card>
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            {t("analytics.adFeed.title")}
          </Text>
          {!report.enabled ? (
            <Text as="p" tone="subdued">
              {t("analytics.adFeed.off")}
            </Text>
          ) : null}
          <Text as="p">
            <span data-ad-feed-gap>
              {t("analytics.adFeed.gap", { placed: report.gap.placed, reached: report.gap.reached, stage })}{" "}
              {t("analytics.adFeed.perPlatform", {
                meta: format.integer(report.gap.sent.meta),
                tiktok: format.integer(report.gap.sent.tiktok),
              })}
            </span>
          </Text>
          <ScrollTable
            label={t("analytics.adFeed.title")}
            numeric
            headings={[
              t("analytics.adFeed.week"),
              t("analytics.adFeed.placed"),
              t("analytics.adFeed.reached", { stage }),
              t("analytics.adFeed.sentTo", { platform: t("adFeed.platform.meta") }),
              t("analytics.adFeed.sentTo", { platform: t("adFeed.platform.tiktok") }),
              t("analytics.adFeed.negative"),
              t("analytics.adFeed.notSent"),
            ]}
            rows={report.weeks.map((w) => ({
              key: w.week,
              cells: [
                weekLabel(format, t, w.week),
                ...[
                  w.placed,
                  w.reached,
                  w.sent.meta[report.stage],
                  w.sent.tiktok[report.stage],
                  w.sent.meta.refused + w.sent.meta.returned + w.sent.tiktok.refused + w.sent.tiktok.returned,
                  NOT_SENT_STATES.reduce((n, s) => n + w.notSent[s], 0),
                ].map((count) => format.integer(count)),
              ],
            }))}
          />
          <Text as="p" variant="bodySm" tone="subdued">
            {t("analytics.adFeed.notSentHelp", { pending: format.integer(pending) })}
          </Text>
        </BlockStack>
      </Card>
    </div>
  );
}
