/**
 * customers/data_request: each request Shopify forwarded, with the JSON export of
 * what the app holds about the customer, for the merchant to send them. Downloaded
 * through App Bridge's authenticated fetch (a plain link carries no session token).
 */
import { useState } from "react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { BlockStack, Button, Card, Text } from "@shopify/polaris";
import { ScrollTable } from "../ScrollTable";
import { TableEmptyText } from "../TableEmptyText";
import { useFormat, useT } from "../../i18n/react";
import type { DataRequestView } from "../../customers/compliance.server";
import { download } from "../download";

export function DataRequestsCard({ requests }: { requests: DataRequestView[] }) {
  const t = useT();
  const format = useFormat();
  const shopify = useAppBridge();
  const [busy, setBusy] = useState<string | null>(null);
  const fetchExport = (request: DataRequestView) => {
    setBusy(request.id);
    download(
      `/app/data-requests/${encodeURIComponent(request.id)}`,
      `data-request-${request.receivedAt.slice(0, 10)}-${request.id}.json`,
    )
      .catch(() => shopify.toast.show(t("activity.dataRequests.downloadFailed"), { isError: true }))
      .finally(() => setBusy(null));
  };
  return (
    <Card padding="0">
      <BlockStack gap="200">
        <div style={{ padding: "var(--p-space-400) var(--p-space-400) 0" }}>
          <BlockStack gap="100">
            <Text as="h2" variant="headingMd">
              {t("activity.dataRequests.title")}
            </Text>
            <Text as="p" tone="subdued">
              {t("activity.dataRequests.intro")}
            </Text>
          </BlockStack>
        </div>
        {requests.length === 0 ? (
          <TableEmptyText>{t("activity.dataRequests.empty")}</TableEmptyText>
        ) : (
          <ScrollTable
            label={t("activity.dataRequests.title")}
            headings={[
              t("activity.dataRequests.receivedAt"),
              t("activity.dataRequests.customer"),
              t("activity.dataRequests.orders"),
              { title: t("mappings.col.actions"), end: true },
            ]}
            rows={requests.map((request) => ({
              key: request.id,
              cells: [
                format.dateTime(request.receivedLocal, { year: true }),
                request.customerId ?? "—",
                t("activity.dataRequests.ordersValue", {
                  held: request.ordersHeld,
                  requested: request.ordersRequested,
                }),
                <Button key="download" size="slim" onClick={() => fetchExport(request)} loading={busy === request.id}>
                  {t("activity.dataRequests.download")}
                </Button>,
              ],
            }))}
          />
        )}
      </BlockStack>
    </Card>
  );
}
