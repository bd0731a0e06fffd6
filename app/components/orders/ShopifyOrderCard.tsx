/** The order as Shopify shows it now (payment, fulfilment, tags), or why it could not be read. */
import { Badge, BlockStack, Card, InlineStack, Text } from "@shopify/polaris";
import { translateCode, useT } from "../../i18n/react";
import type { ShopifyOrderStatusResult } from "../../shopify/order-status.server";
import { ShopifyErrorBanner } from "../ShopifyErrorBanner";

export function ShopifyOrderCard({
  shopify,
  onRetry,
  retrying,
}: {
  shopify: ShopifyOrderStatusResult;
  onRetry(): void;
  retrying: boolean;
}) {
  const t = useT();
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t("order.shopify.title")}
        </Text>
        {!shopify.ok ? (
          <ShopifyErrorBanner failure={shopify.failure} work="order" onRetry={onRetry} retrying={retrying} />
        ) : !shopify.order ? (
          <Text as="p" tone="subdued">
            {t("order.shopify.missing")}
          </Text>
        ) : (
          <BlockStack gap="300">
            {shopify.order.cancelledAt ? <Badge tone="critical">{t("order.shopify.cancelled")}</Badge> : null}
            <BlockStack gap="050">
              <Text as="span" variant="bodySm" tone="subdued">
                {t("order.shopify.payment")}
              </Text>
              <span data-shopify-field="payment">
                {shopify.order.financialStatus
                  ? translateCode(t, "order.shopify.financial", shopify.order.financialStatus)
                  : "–"}
              </span>
            </BlockStack>
            <BlockStack gap="050">
              <Text as="span" variant="bodySm" tone="subdued">
                {t("order.shopify.fulfillment")}
              </Text>
              <span data-shopify-field="fulfillment">
                {translateCode(t, "order.shopify.fulfillment", shopify.order.fulfillmentStatus)}
              </span>
            </BlockStack>
            <BlockStack gap="050">
              <Text as="span" variant="bodySm" tone="subdued">
                {t("order.shopify.tags")}
              </Text>
              {shopify.order.tags.length > 0 ? (
                <InlineStack gap="100">
                  {shopify.order.tags.map((tag) => (
                    <Badge key={tag}>{tag}</Badge>
                  ))}
                </InlineStack>
              ) : (
                <Text as="span" tone="subdued">
                  {t("order.shopify.noTags")}
                </Text>
              )}
            </BlockStack>
          </BlockStack>
        )}
      </BlockStack>
    </Card>
  );
}
