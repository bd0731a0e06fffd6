/**
 * One cause on the Anomalies page: what it is and what is at stake (orders, amount,
 * oldest age), the orders it holds, and the fix that applies: one fix for the whole
 * group (a product, a city), a field in place per order (a phone), a decision per
 * flagged duplicate, or the platform's seller space for a flagged lead. Never a
 * blind "send again" of refused or flagged orders.
 */
import { BlockStack, Button, Card, InlineStack, Link, Text } from "@shopify/polaris";
import type { CityOption, GroupOrder, ProblemGroupView, ProductOption } from "../../pages/anomalies.server";
import { isMessageKey, type MessageKey } from "../../i18n";
import { useFormat, useMessage, useT, type Translate } from "../../i18n/react";
import { LinkStateBadge } from "../StatusBadge";
import { OrderLink, type FixSubmit } from "./OrderCards";
import { CityFix, ProductFix } from "./Proposals";
import { PhoneFixField } from "./PhoneFixField";
import { anomalyText, codeLabel, ordersCount } from "./text";
import { readyGroupHelp, refusalText } from "./attention-text";
import { ageText } from "../home/InboxCard";

export function groupTitle(t: Translate, group: ProblemGroupView, staleOrderDays = 7): string {
  const orders = ordersCount(t, group.count);
  if (group.kind === "sku") {
    return group.fix === "mapSku"
      ? t("anomalies.group.sku", { sku: group.label, orders })
      : t("anomalies.group.skuMissing", { title: group.label, orders });
  }
  if (group.kind === "city") {
    return group.label
      ? t("anomalies.group.city", { city: group.label, orders })
      : t("anomalies.group.cityMissing", { orders });
  }
  if (group.kind === "refused")
    return t("anomalies.group.refused", { field: t(`refused.field.${group.code}` as MessageKey), orders });
  if (group.kind === "state") {
    if (group.code === "ready") return t("anomalies.group.ready", { orders });
    if (group.code === "stale") return t("anomalies.group.stale", { orders, days: staleOrderDays });
    return group.code === "failed" ? t("anomalies.group.failed", { orders }) : t("anomalies.group.invalid", { orders });
  }
  return t(group.kind === "anomaly" ? "anomalies.group.anomaly" : "anomalies.group.finding", {
    problem: codeLabel(t, group.code),
    orders,
  });
}

interface Props {
  group: ProblemGroupView & { oldestMinutes: number };
  products: ProductOption[];
  cities: CityOption[];
  onFix: FixSubmit;
  /** The group's own fix is running. */
  busy: boolean;
  /** The order whose own action is running. */
  busyId: string;
  /** "Cancel in Shopify" asks first: the page opens its confirmation. */
  onCancelDuplicate(order: GroupOrder): void;
  /** Sending the group asks first (how many, how old, how much): the page opens its confirmation. */
  onSendGroup(): void;
  /** The shop's limit, in days: older orders are sent only with the merchant's word. */
  staleOrderDays: number;
}

/** A phone typed for one order, then that order corrected and sent. */
function PhoneFix({ order, onFix, busy }: { order: GroupOrder; onFix: FixSubmit; busy: boolean }) {
  const t = useT();
  return (
    <PhoneFixField
      label={t("anomalies.phoneFor", { order: order.orderName })}
      busy={busy}
      onSave={(phone) => onFix({ intent: "correctPhone", id: order.id, phone })}
    />
  );
}

function OrderLine({ order, children }: { order: GroupOrder; children?: React.ReactNode }) {
  const format = useFormat();
  return (
    <div data-group-order={order.orderName}>
      <BlockStack gap="100">
        <InlineStack gap="200" blockAlign="center" wrap>
          <OrderLink id={order.id} name={order.orderName} />
          <LinkStateBadge state={order.state} />
          <Text as="span" tone="subdued" numeric>
            {format.money(order.amountCents)}
          </Text>
        </InlineStack>
        {children}
      </BlockStack>
    </div>
  );
}

export function AnomalyGroupCard({
  group,
  products,
  cities,
  onFix,
  busy,
  busyId,
  onCancelDuplicate,
  onSendGroup,
  staleOrderDays,
}: Props) {
  const t = useT();
  const format = useFormat();
  const render = useMessage();
  const orders = ordersCount(t, group.count);
  const phoneGroup = group.cause === "phone" || (group.kind === "refused" && group.code === "phone");

  let fix: React.ReactNode = null;
  let perOrder: ((order: GroupOrder) => React.ReactNode) | null = null;
  const proposalOrders = group.orders.map((o) => ({ name: o.orderName, shopifyUrl: o.shopifyUrl, address: o.address }));
  if (group.fix === "mapSku" || group.fix === "mapVariant") {
    fix = (
      <ProductFix
        title={group.itemTitle || group.label}
        suggestions={group.suggestions}
        products={products}
        orders={proposalOrders}
        busy={busy}
        labels={{
          apply: (name) => t("anomalies.fix.useProduct", { name, orders }),
          applyPicked: t("anomalies.fix.mapSku", { orders }),
        }}
        onApply={(platformSku) => onFix({ intent: "fixSku", key: group.key, platformSku })}
        onCheckAgain={() => onFix({ intent: "checkCatalogue", key: group.key })}
      />
    );
  } else if (group.fix === "aliasCity") {
    fix = (
      <CityFix
        input={group.label}
        suggestions={group.suggestions}
        cities={cities}
        orders={proposalOrders}
        busy={busy}
        unrecognised
        labels={{
          apply: (name) => t("anomalies.fix.useCity", { name, orders }),
          applyPicked: t("anomalies.fix.aliasCity", { orders }),
        }}
        onApply={(cityId) => onFix({ intent: "fixCity", key: group.key, cityId: String(cityId) })}
      />
    );
  } else if (group.fix === "resend" || group.fix === "send" || group.fix === "sendStale") {
    const help =
      group.fix === "resend"
        ? "anomalies.fix.failedHelp"
        : group.fix === "sendStale"
          ? "anomalies.fix.staleHelp"
          : readyGroupHelp(group.readyReasons);
    const label =
      group.fix === "resend"
        ? "anomalies.fix.retry"
        : group.fix === "sendStale"
          ? "anomalies.fix.sendStale"
          : "anomalies.fix.send";
    fix = (
      <InlineStack gap="200" blockAlign="center" align="space-between">
        <Text as="span" variant="bodySm" tone="subdued">
          {t(help)}
        </Text>
        <span data-send-group={group.key}>
          <Button variant={group.fix === "sendStale" ? "secondary" : "primary"} loading={busy} onClick={onSendGroup}>
            {t(label, { orders })}
          </Button>
        </span>
      </InlineStack>
    );
  } else if (group.fix === "decide") {
    fix = (
      <Text as="p" variant="bodySm" tone="subdued">
        {t("anomalies.fix.decide")}
      </Text>
    );
    perOrder = (order) => (
      <BlockStack gap="100">
        <Text as="p" variant="bodySm">
          <span data-duplicate-of={order.duplicateOf?.ref ?? ""}>
            {order.duplicateOf
              ? t("next.duplicate.repeats", { ref: order.duplicateOf.ref })
              : t("next.duplicate.repeatsUnknown")}{" "}
            {order.duplicateOf?.orderId ? (
              <Link url={`/app/orders/${order.duplicateOf.orderId}`}>
                {t("next.duplicate.openEarlier", { name: order.duplicateOf.orderName ?? "" })}
              </Link>
            ) : null}
          </span>
        </Text>
        <InlineStack gap="200">
          <Button
            size="slim"
            loading={busyId === order.id}
            onClick={() => onFix({ intent: "keepDuplicate", id: order.id })}
          >
            {t("next.duplicate.keep")}
          </Button>
          <Button size="slim" tone="critical" disabled={busyId === order.id} onClick={() => onCancelDuplicate(order)}>
            {t("next.duplicate.cancel")}
          </Button>
        </InlineStack>
      </BlockStack>
    );
  } else if (group.fix === "sellerSpace") {
    fix = (
      <BlockStack gap="100">
        <Text as="p">{anomalyText(render, { code: group.code, message: group.code })}</Text>
        <Text as="p" variant="bodySm" tone="subdued">
          {t("anomalies.fix.sellerSpace")}
        </Text>
      </BlockStack>
    );
  } else {
    const hint = `anomalies.hint.${group.kind === "refused" ? `refused.${group.code}` : group.code}`;
    fix = (
      <Text as="p" variant="bodySm" tone="subdued">
        {isMessageKey(hint) ? t(hint) : t("anomalies.fix.perOrder")}
      </Text>
    );
    if (group.kind === "refused") {
      perOrder = (order) => (
        <BlockStack gap="100">
          <span data-refusal>
            <Text as="p" variant="bodySm" tone="critical">
              {refusalText(t, order.refusal ?? null)}
            </Text>
          </span>
          {phoneGroup ? <PhoneFix order={order} onFix={onFix} busy={busyId === order.id} /> : null}
        </BlockStack>
      );
    } else if (phoneGroup) {
      perOrder = (order) => <PhoneFix order={order} onFix={onFix} busy={busyId === order.id} />;
    }
  }

  return (
    <div data-group={group.key}>
      <Card>
        <BlockStack gap="300">
          <BlockStack gap="100">
            <Text as="h2" variant="headingMd">
              {groupTitle(t, group, staleOrderDays)}
            </Text>
            <Text as="p" variant="bodySm" tone="subdued">
              <span data-group-stake>
                {t(group.unknownAmounts >= group.count ? "anomalies.stakeUnknown" : "anomalies.stake", {
                  amount: format.money(group.amountCents),
                  age: ageText(format, t, group.oldestMinutes),
                })}
              </span>
            </Text>
          </BlockStack>
          {perOrder ? (
            <BlockStack gap="300">
              {group.orders.map((order) => (
                <OrderLine key={order.id} order={order}>
                  {perOrder!(order)}
                </OrderLine>
              ))}
            </BlockStack>
          ) : (
            <InlineStack gap="300" wrap blockAlign="center">
              {group.orders.map((order) => (
                <InlineStack key={order.id} gap="100" blockAlign="center" wrap={false}>
                  <OrderLink id={order.id} name={order.orderName} />
                  <LinkStateBadge state={order.state} />
                </InlineStack>
              ))}
            </InlineStack>
          )}
          {group.count > group.orders.length ? (
            <Text as="span" tone="subdued">
              {t("anomalies.moreOrders", { count: format.integer(group.count - group.orders.length) })}
            </Text>
          ) : null}
          {fix}
        </BlockStack>
      </Card>
    </div>
  );
}
