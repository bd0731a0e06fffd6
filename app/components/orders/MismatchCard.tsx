/**
 * Anomalies: the sent orders Shopify and the platform disagree about in a way that
 * costs money (cancelled, refunded or edited in Shopify while the parcel ships),
 * first of all, each with what happened and the delivery fee at stake; its page
 * says how to stop the lead (only in the platform's seller space).
 */
import { Badge, BlockStack, Card, InlineStack, Text } from "@shopify/polaris";
import type { Mismatches } from "../../pages/mismatches.server";
import { useFormat, useT } from "../../i18n/react";
import { OrderLink } from "./OrderCards";

export function MismatchCard({ mismatches }: { mismatches: Mismatches }) {
  const t = useT();
  const format = useFormat();
  return (
    <div data-group="mismatch">
      <Card>
        <BlockStack gap="300">
          <BlockStack gap="100">
            <Text as="h2" variant="headingMd">
              {t("anomalies.cause.mismatch")}
            </Text>
            <Text as="p" variant="bodySm" tone="subdued">
              {t("anomalies.mismatch.help")}
            </Text>
          </BlockStack>
          <BlockStack gap="200">
            {mismatches.orders.map((order) => (
              <div key={order.id} data-group-order={order.orderName}>
                <InlineStack gap="200" blockAlign="center" wrap>
                  <OrderLink id={order.id} name={order.orderName} />
                  <Badge tone="critical">{t(`attention.mismatch.${order.what}`)}</Badge>
                  <Text as="span" variant="bodySm" tone="subdued">
                    {order.deliveryFeeCents === null
                      ? t("home.inbox.feesUnknown")
                      : t("home.inbox.feesAtStake", { amount: format.money(order.deliveryFeeCents) })}
                  </Text>
                </InlineStack>
              </div>
            ))}
          </BlockStack>
        </BlockStack>
      </Card>
    </div>
  );
}
