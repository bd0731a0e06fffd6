/**
 * Activity: the conversion feed's last sends (with those told from customer
 * data alone), the outcomes it did not send and why (too late, no consent, the
 * platform's refusal in its own words), what waits, and a token a platform
 * refused.
 */
import { Banner, BlockStack, Card, Link, Text } from "@shopify/polaris";
import type { FeedActivity, FeedActivityRow } from "../../ad-feed/report.server";
import { useFormat, useT } from "../../i18n/react";
import { ScrollTable } from "../ScrollTable";
import { TableEmptyText } from "../TableEmptyText";

export function AdFeedActivityCard({ activity }: { activity: FeedActivity }) {
  const t = useT();
  const format = useFormat();
  const platform = (p: string) => t(`adFeed.platform.${p as "meta" | "tiktok"}`);
  const table = (rows: FeedActivityRow[], kind: "sent" | "notSent") =>
    rows.length === 0 ? (
      <TableEmptyText>{t(kind === "sent" ? "activity.adFeed.none" : "activity.adFeed.noneNotSent")}</TableEmptyText>
    ) : (
      <ScrollTable
        label={t(kind === "sent" ? "activity.adFeed.sent.title" : "activity.adFeed.notSent.title")}
        headings={[
          t("activity.adFeed.order"),
          t("activity.adFeed.outcome"),
          t("activity.adFeed.platform"),
          t("activity.adFeed.at"),
          t(kind === "sent" ? "activity.adFeed.how" : "activity.adFeed.why"),
        ]}
        rows={rows.map((row, index) => ({
          key: `${kind}-${index}`,
          cells: [
            <Link key="order" url={`/app/orders/${encodeURIComponent(row.linkId)}`} removeUnderline>
              {row.orderName || "—"}
            </Link>,
            t(`adFeed.stage.${row.stage}`),
            platform(row.platform),
            format.dateTime(row.atLocal),
            kind === "sent"
              ? t(row.customerDataOnly ? "activity.adFeed.customerDataOnly" : "activity.adFeed.withCheckout")
              : row.state === "refused"
                ? t("activity.adFeed.why.refused", { detail: row.detail ?? "" })
                : t(row.state === "too_late" ? "activity.adFeed.why.too_late" : "activity.adFeed.why.no_consent"),
          ],
        }))}
      />
    );
  return (
    <div data-ad-feed-activity>
      <Card padding="0">
        <BlockStack gap="200">
          <div style={{ padding: "var(--p-space-400) var(--p-space-400) 0" }}>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                {t("activity.adFeed.title")}
              </Text>
              {activity.tokenRefused.map((p) => (
                <Banner key={p} tone="critical">
                  <p>{t("activity.adFeed.tokenRefused", { platform: platform(p) })}</p>
                </Banner>
              ))}
              {activity.pending > 0 ? (
                <Text as="p" tone="subdued">
                  {t("activity.adFeed.pending", { count: activity.pending })}
                </Text>
              ) : null}
              <Text as="h3" variant="headingSm">
                {t("activity.adFeed.sent.title")}
              </Text>
            </BlockStack>
          </div>
          {table(activity.sent, "sent")}
          <div style={{ padding: "0 var(--p-space-400)" }}>
            <Text as="h3" variant="headingSm">
              {t("activity.adFeed.notSent.title")}
            </Text>
          </div>
          {table(activity.notSent, "notSent")}
        </BlockStack>
      </Card>
    </div>
  );
}
