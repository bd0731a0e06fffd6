/** One cause on the Anomalies page: what it is, the orders it blocks, and the one fix for all of them. */
import { useState } from "react";
import { BlockStack, Box, Button, Card, InlineStack, Text } from "@shopify/polaris";
import type { CityOption, ProblemGroupView, ProductOption } from "../../pages/anomalies.server";
import { useT, type Translate } from "../../i18n/react";
import { LinkStateBadge } from "../StatusBadge";
import { OrderLink, type FixSubmit } from "./OrderCards";
import { CityPicker, ProductPicker } from "./Pickers";
import { codeLabel, ordersCount } from "./text";

export function groupTitle(t: Translate, group: ProblemGroupView): string {
  const orders = ordersCount(t, group.count);
  if (group.kind === "sku") {
    return group.fix === "mapSku" ? t("anomalies.group.sku", { sku: group.label, orders }) : t("anomalies.group.skuMissing", { title: group.label, orders });
  }
  if (group.kind === "city") {
    return group.label ? t("anomalies.group.city", { city: group.label, orders }) : t("anomalies.group.cityMissing", { orders });
  }
  if (group.kind === "state") return group.code === "failed" ? t("anomalies.group.failed", { orders }) : t("anomalies.group.invalid", { orders });
  return t(group.kind === "anomaly" ? "anomalies.group.anomaly" : "anomalies.group.finding", { problem: codeLabel(t, group.code), orders });
}

interface Props {
  group: ProblemGroupView;
  products: ProductOption[];
  cities: CityOption[];
  onFix: FixSubmit;
  busy: boolean;
}

export function AnomalyGroupCard({ group, products, cities, onFix, busy }: Props) {
  const t = useT();
  const [sku, setSku] = useState<string | null>(null);
  const [cityId, setCityId] = useState<number | null>(null);
  const orders = ordersCount(t, group.count);

  let fix = null;
  if (group.fix === "mapSku" || group.fix === "mapVariant") {
    fix = (
      <InlineStack gap="200" blockAlign="end" wrap={false}>
        <Box minWidth="360px">
          <ProductPicker label={t("order.fix.product")} value={sku} onChange={setSku} suggestions={group.suggestions} options={products} />
        </Box>
        <Button variant="primary" disabled={!sku} loading={busy} onClick={() => sku && onFix({ intent: "fixSku", key: group.key, platformSku: sku })}>
          {t("anomalies.fix.mapSku", { orders })}
        </Button>
      </InlineStack>
    );
  } else if (group.fix === "aliasCity") {
    fix = (
      <InlineStack gap="200" blockAlign="end" wrap={false}>
        <Box minWidth="360px">
          <CityPicker label={t("order.fix.city")} value={cityId} onChange={setCityId} suggestions={group.suggestions} options={cities} />
        </Box>
        <Button
          variant="primary"
          disabled={cityId === null}
          loading={busy}
          onClick={() => cityId !== null && onFix({ intent: "fixCity", key: group.key, cityId: String(cityId) })}
        >
          {t("anomalies.fix.aliasCity", { orders })}
        </Button>
      </InlineStack>
    );
  } else if (group.fix === "resend") {
    fix = (
      <InlineStack gap="200" blockAlign="center" align="space-between">
        {group.kind === "anomaly" ? (
          <Text as="span" variant="bodySm" tone="subdued">
            {t("anomalies.fix.damaged")}
          </Text>
        ) : (
          <span />
        )}
        <Button loading={busy} onClick={() => onFix({ intent: "resendGroup", key: group.key })}>
          {t("anomalies.fix.resend", { orders })}
        </Button>
      </InlineStack>
    );
  } else {
    fix = (
      <Text as="p" variant="bodySm" tone="subdued">
        {t("anomalies.fix.perOrder")}
      </Text>
    );
  }

  return (
    <div data-group={group.key}>
      <Card>
        <BlockStack gap="300">
          <Text as="h2" variant="headingMd">
            {groupTitle(t, group)}
          </Text>
          <InlineStack gap="300" wrap blockAlign="center">
            {group.orders.map((order) => (
              <InlineStack key={order.id} gap="100" blockAlign="center" wrap={false}>
                <OrderLink id={order.id} name={order.orderName} />
                <LinkStateBadge state={order.state} />
              </InlineStack>
            ))}
            {group.count > group.orders.length ? (
              <Text as="span" tone="subdued">
                {t("anomalies.moreOrders", { count: group.count - group.orders.length })}
              </Text>
            ) : null}
          </InlineStack>
          {fix}
        </BlockStack>
      </Card>
    </div>
  );
}
