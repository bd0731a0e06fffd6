/** Anomalies: the orders the customer hold keeps back, each with its reason and "send anyway". */
import { BlockStack, Button, Card, InlineStack, Text } from "@shopify/polaris";
import type { CustomerHolds } from "../../customers/held-orders.server";
import { holdReasonViewText } from "../../customers/hold-reason";
import { useFormat, useT } from "../../i18n/react";
import { RiskBadge } from "./CustomerCard";
import { OrderLink, type FixSubmit } from "./OrderCards";
import { ContactLinks, customerAmount, type ContactSettings } from "../contact/ContactLinks";

export function CustomerHoldsCard({
  holds,
  onSend,
  busyId,
  contact,
}: {
  holds: CustomerHolds;
  onSend: FixSubmit;
  busyId: string;
  contact: ContactSettings;
}) {
  const t = useT();
  const format = useFormat();
  if (holds.count === 0) return null;
  return (
    <div data-section="customer-holds">
      <Card>
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            {t("customers.anomalies.title", { count: format.integer(holds.count) })}
          </Text>
          <Text as="p" tone="subdued">
            {t("customers.anomalies.intro")}
          </Text>
          <BlockStack gap="200">
            {holds.orders.map((order) => (
              <div key={order.id} data-held-order={order.orderName}>
                <InlineStack gap="300" align="space-between" blockAlign="center">
                  <InlineStack gap="200" blockAlign="center">
                    <OrderLink id={order.id} name={order.orderName} />
                    {order.risk && order.risk !== "new" ? <RiskBadge risk={order.risk} /> : null}
                    <span data-hold-reason>
                      <Text as="span">{holdReasonViewText(t, order.reason)}</Text>
                    </span>
                    <ContactLinks
                      phone={order.phone}
                      orderName={order.orderName}
                      contact={contact}
                      facts={{
                        name: order.customerName,
                        order: order.orderName,
                        city: order.cityName,
                        amount: order.amountCents === null ? null : customerAmount(order.amountCents),
                      }}
                    />
                  </InlineStack>
                  <Button
                    onClick={() => onSend({ intent: "sendAnyway", id: order.id })}
                    loading={busyId === order.id}
                    accessibilityLabel={t("customers.anomalies.sendAnyway", { order: order.orderName })}
                  >
                    {t("customers.held.sendAnyway")}
                  </Button>
                </InlineStack>
              </div>
            ))}
          </BlockStack>
          {holds.count > holds.orders.length ? (
            <Text as="p" tone="subdued">
              {t("customers.anomalies.more", { count: format.integer(holds.count - holds.orders.length) })}
            </Text>
          ) : null}
        </BlockStack>
      </Card>
    </div>
  );
}
