/**
 * customers/data_request: each request Shopify forwarded, with the JSON export of
 * what the app holds about the customer, for the merchant to send them. Downloaded
 * through App Bridge's authenticated fetch (a plain link carries no session token).
 */
import { BlockStack, Button, Card } from "@shopify/polaris";
import { ScrollTable } from "../ScrollTable";
import { TableEmptyText } from "../TableEmptyText";
import { useFormat, useT } from "../../i18n/react";
import { CardHeading } from "../CardHeading";
import type { DataRequestView } from "../../customers/compliance.server";
import { useDownload } from "../useDownload";

export function DataRequestsCard({ requests }: { requests: DataRequestView[] }) {
  const t = useT();
  const format = useFormat();
  const { downloading: busy, start } = useDownload<string>(t("activity.dataRequests.downloadFailed"));
  const fetchExport = (request: DataRequestView) =>
    start(
      request.id,
      `/app/data-requests/${encodeURIComponent(request.id)}`,
      `data-request-${request.receivedAt.slice(0, 10)}-${request.id}.json`,
    );
  return (
    <Card padding="0">
      <BlockStack gap="200">
        <div style={{ padding: "var(--p-space-400) var(--p-space-400) 0" }}>
          <CardHeading title={t("activity.dataRequests.title")} intro={t("activity.dataRequests.intro")} />
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
