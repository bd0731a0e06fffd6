/**
 * customers/data_request: each request Shopify forwarded, with the JSON export of
 * what the app holds about the customer, for the merchant to send them. Downloaded
 * through App Bridge's authenticated fetch (a plain link carries no session token).
 */
import { BlockStack, Button, Card, IndexTable } from "@shopify/polaris";
import { useFormat, useT } from "../../i18n/react";
import { CardHeading } from "../CardHeading";
import { ListTable } from "../ListTable";
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
        <ListTable
          resourceName={{ singular: t("activity.dataRequests.singular"), plural: t("activity.dataRequests.plural") }}
          itemCount={requests.length}
          empty={t("activity.dataRequests.empty")}
          headings={[
            { title: t("activity.dataRequests.receivedAt") },
            { title: t("activity.dataRequests.customer") },
            { title: t("activity.dataRequests.orders") },
            { title: "" },
          ]}
        >
          {requests.map((request, index) => (
            <IndexTable.Row id={request.id} key={request.id} position={index}>
              <IndexTable.Cell>{format.dateTime(request.receivedLocal, { year: true })}</IndexTable.Cell>
              <IndexTable.Cell>{request.customerId ?? "—"}</IndexTable.Cell>
              <IndexTable.Cell>
                {t("activity.dataRequests.ordersValue", {
                  held: request.ordersHeld,
                  requested: request.ordersRequested,
                })}
              </IndexTable.Cell>
              <IndexTable.Cell>
                <Button size="slim" onClick={() => fetchExport(request)} loading={busy === request.id}>
                  {t("activity.dataRequests.download")}
                </Button>
              </IndexTable.Cell>
            </IndexTable.Row>
          ))}
        </ListTable>
      </BlockStack>
    </Card>
  );
}
