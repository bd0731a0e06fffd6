/**
 * The cards of an order's page: the lead, its statuses, its findings and
 * anomalies with their fixes, per-order corrections and the timeline.
 */
import { useState, type ReactNode } from "react";
import {
  Badge,
  BlockStack,
  Button,
  Card,
  Divider,
  InlineGrid,
  InlineStack,
  Link,
  Text,
  TextField,
} from "@shopify/polaris";
import type { FindingView, LeadView, OrderDetail, TimelineView } from "../../pages/order-detail.server";
import type { CityOption, ProductOption } from "../../pages/anomalies.server";
import { useFormat, useMessage, useT, zoneName } from "../../i18n/react";
import { ConfirmationBadge, LinkStateBadge, ShippingBadge } from "../StatusBadge";
import { CityFix, ProductFix, type ProposalOrder } from "./Proposals";
import { PhoneFixField } from "./PhoneFixField";
import { anomalyText, codeLabel, findingText, timelineTitle, timelineText } from "./text";

/** The fields a fix posts to the page's action. */
export type FixSubmit = (fields: Record<string, string>) => void;

function Field({ label, name, children }: { label: string; name: string; children: ReactNode }) {
  return (
    <BlockStack gap="050">
      <Text as="span" variant="bodySm" tone="subdued">
        {label}
      </Text>
      <Text as="span" variant="bodyMd">
        <span data-field={name}>{children}</span>
      </Text>
    </BlockStack>
  );
}

const dash = "–";

export function LeadCard({ lead, sent }: { lead: LeadView | null; sent: boolean }) {
  const t = useT();
  const format = useFormat();
  return (
    <Card>
      <BlockStack gap="300">
        <BlockStack gap="100">
          <Text as="h2" variant="headingMd">
            {t("order.lead.title")}
          </Text>
          <Text as="p" tone="subdued">
            {!lead
              ? t("order.lead.none")
              : lead.source === "order"
                ? t("order.lead.fromOrder")
                : sent
                  ? t("order.lead.sent")
                  : t("order.lead.pending")}
          </Text>
        </BlockStack>
        {lead ? (
          <>
            <InlineGrid columns={{ xs: 1, sm: 2 }} gap="300">
              <Field label={t("order.lead.customer")} name="customer">
                {lead.customerName ?? dash}
              </Field>
              <Field label={t("order.lead.phone")} name="phone">
                {lead.phone ?? dash}
              </Field>
              <Field label={t("order.lead.city")} name="city">
                {lead.cityName ?? dash}
              </Field>
              <Field label={t("order.lead.total")} name="total">
                {lead.totalClient ? format.moneyText(lead.totalClient, lead.currency || undefined) : dash}
              </Field>
            </InlineGrid>
            <Field label={t("order.lead.address")} name="address">
              {lead.address ?? dash}
            </Field>
            <Divider />
            <BlockStack gap="150">
              <Text as="h3" variant="headingSm">
                {t("order.lead.items")}
              </Text>
              {lead.items.map((item, i) => (
                <InlineStack key={i} align="space-between" blockAlign="center" gap="200">
                  <BlockStack gap="0">
                    <Text as="span" fontWeight="medium">
                      {item.name ?? item.sku ?? dash}
                    </Text>
                    <Text as="span" variant="bodySm" tone={item.inCatalogue ? "subdued" : "caution"}>
                      {item.inCatalogue ? (item.sku ?? "") : t("order.lead.notInCatalogue", { sku: item.sku ?? dash })}
                    </Text>
                  </BlockStack>
                  <Text as="span">{t("order.lead.quantity", { quantity: item.quantity })}</Text>
                </InlineStack>
              ))}
            </BlockStack>
          </>
        ) : null}
      </BlockStack>
    </Card>
  );
}

export function StatusCard({ order }: { order: OrderDetail }) {
  const t = useT();
  const format = useFormat();
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t("order.status.title")}
        </Text>
        <Field label={t("order.status.state")} name="state">
          <LinkStateBadge state={order.state} />
        </Field>
        <Field label={t("order.status.ref")} name="leadRef">
          {order.leadRef ?? dash}
        </Field>
        <Field label={t("order.status.confirmation")} name="confirmation">
          {order.confirmationStatus ? <ConfirmationBadge status={order.confirmationStatus} /> : dash}
        </Field>
        <Field label={t("order.status.shipping")} name="shipping">
          {order.shippingStatus ? <ShippingBadge status={order.shippingStatus} /> : dash}
        </Field>
        {order.trackingNumber ? (
          <Field label={t("order.status.tracking")} name="tracking">
            {order.trackingNumber}
          </Field>
        ) : null}
        {order.sellerProfit ? (
          <Field label={t("order.status.profit")} name="profit">
            {format.moneyText(order.sellerProfit)}
          </Field>
        ) : null}
        <Field label={t("order.status.postCount")} name="postCount">
          {order.postCount}
        </Field>
        {order.resendBy ? (
          <Text as="p" variant="bodySm" tone="subdued">
            {t("order.status.resend", { by: order.resendBy })}
          </Text>
        ) : null}
      </BlockStack>
    </Card>
  );
}

interface FixProps {
  finding: FindingView;
  products: ProductOption[];
  cities: CityOption[];
  /** This order, for its address and its page in Shopify. */
  order: ProposalOrder;
  onFix: FixSubmit;
  busy: boolean;
}

/** The fix in place for one finding; nothing when it has none. */
function FindingFixForm({ finding, products, cities, order, onFix, busy }: FixProps) {
  const t = useT();

  if ((finding.fix === "mapSku" || finding.fix === "mapVariant") && finding.groupKey) {
    const key = finding.groupKey;
    const title = String(finding.params.title ?? "") || String(finding.params.sku ?? "");
    return (
      <ProductFix
        title={title}
        suggestions={finding.suggestions}
        products={products}
        orders={[order]}
        busy={busy}
        labels={{
          apply: (name) => t("fix.useSuggestion", { name }),
          applyPicked: t("order.fix.mapSku"),
          help: t("order.fix.mapSkuHelp"),
        }}
        onApply={(platformSku) => onFix({ intent: "fixSku", key, platformSku })}
        onCheckAgain={() => onFix({ intent: "checkCatalogue", key })}
      />
    );
  }
  if (finding.fix === "aliasCity" || finding.fix === "setCity") {
    const alias = finding.fix === "aliasCity" && finding.groupKey ? finding.groupKey : null;
    const input = String(finding.params.input ?? "");
    const apply = (cityId: number) =>
      onFix(
        alias
          ? { intent: "fixCity", key: alias, cityId: String(cityId) }
          : { intent: "correct", cityId: String(cityId) },
      );
    return (
      <CityFix
        input={input}
        suggestions={finding.suggestions}
        cities={cities}
        orders={[order]}
        busy={busy}
        unrecognised={finding.code === "city_unmatched"}
        labels={{
          apply: (name) => t("fix.useSuggestion", { name }),
          applyPicked: alias ? t("order.fix.aliasCity") : t("order.fix.setCity"),
          help: alias ? t("order.fix.aliasCityHelp", { spelling: input }) : t("order.corrections.intro"),
        }}
        onApply={apply}
      />
    );
  }
  if (finding.fix === "phone") {
    return (
      <PhoneFixField
        label={t("order.fix.phone")}
        busy={busy}
        primary
        onSave={(phone) => onFix({ intent: "correct", phone })}
      />
    );
  }
  return null;
}

export function FindingsCard({
  order,
  onFix,
  busy,
  fixable = order.canResend,
  showAnomalies = true,
}: {
  order: Pick<
    OrderDetail,
    "findings" | "anomalies" | "products" | "cities" | "canResend" | "orderName" | "shopifyUrl" | "shippingAddress"
  >;
  onFix: FixSubmit;
  busy: boolean;
  /** Fixes in place are offered before sending only (a lead on the platform is corrected in its seller space). */
  fixable?: boolean;
  /** The platform's anomalies are listed here unless the page's next action already explains them. */
  showAnomalies?: boolean;
}) {
  const t = useT();
  const render = useMessage();
  return (
    <Card>
      <BlockStack gap="400">
        <Text as="h2" variant="headingMd">
          {t("order.findings.title")}
        </Text>
        {order.findings.length === 0 && order.anomalies.length === 0 ? (
          <Text as="p" tone="subdued">
            {t("order.findings.none")}
          </Text>
        ) : null}
        {order.findings.map((finding, i) => (
          <div key={`${finding.code}-${i}`} data-finding={finding.code}>
            <BlockStack gap="200">
              <InlineStack gap="200" blockAlign="center">
                <Badge tone={finding.severity === "blocking" ? "critical" : "attention"}>
                  {finding.severity === "blocking" ? t("order.severity.blocking") : t("order.severity.warning")}
                </Badge>
                <Text as="span" fontWeight="semibold">
                  {codeLabel(t, finding.code)}
                </Text>
              </InlineStack>
              <Text as="p">{findingText(render, finding)}</Text>
              {fixable ? (
                <FindingFixForm
                  finding={finding}
                  products={order.products}
                  cities={order.cities}
                  order={{ name: order.orderName, shopifyUrl: order.shopifyUrl, address: order.shippingAddress }}
                  onFix={onFix}
                  busy={busy}
                />
              ) : null}
              {i < order.findings.length - 1 || (showAnomalies && order.anomalies.length > 0) ? <Divider /> : null}
            </BlockStack>
          </div>
        ))}
        {showAnomalies && order.anomalies.length > 0 ? (
          <BlockStack gap="200">
            <Text as="h3" variant="headingSm">
              {t("order.anomalies.title")}
            </Text>
            {order.anomalies.map((anomaly, i) => (
              <div key={`${anomaly.code}-${i}`} data-anomaly={anomaly.code}>
                <InlineStack gap="200" blockAlign="center" wrap>
                  <Badge tone="warning">{codeLabel(t, anomaly.code)}</Badge>
                  <Text as="span">{anomalyText(render, anomaly)}</Text>
                </InlineStack>
              </div>
            ))}
          </BlockStack>
        ) : null}
      </BlockStack>
    </Card>
  );
}

export function CorrectionsCard({
  order,
  onFix,
  busy,
}: {
  order: Pick<OrderDetail, "overrides" | "canResend">;
  onFix: FixSubmit;
  busy: boolean;
}) {
  const t = useT();
  const [phone, setPhone] = useState(order.overrides.phone ?? "");
  const [address, setAddress] = useState(order.overrides.address ?? "");
  const corrected = (["phone", "address", "city", "name"] as const)
    .filter((field) => order.overrides[field])
    .map((field) => t(`order.corrections.${field}`));
  return (
    <Card>
      <BlockStack gap="300">
        <BlockStack gap="100">
          <Text as="h2" variant="headingMd">
            {t("order.corrections.title")}
          </Text>
          <Text as="p" variant="bodySm" tone="subdued">
            {t("order.corrections.intro")}
          </Text>
        </BlockStack>
        {corrected.length > 0 ? (
          <Text as="p" variant="bodySm">
            {t("order.corrections.current", { fields: corrected.join(", ") })}
          </Text>
        ) : null}
        <TextField
          label={t("order.corrections.phone")}
          type="tel"
          value={phone}
          onChange={setPhone}
          autoComplete="off"
          disabled={!order.canResend}
        />
        <TextField
          label={t("order.corrections.address")}
          value={address}
          onChange={setAddress}
          multiline={2}
          autoComplete="off"
          disabled={!order.canResend}
        />
        <InlineStack align="end">
          <Button
            loading={busy}
            disabled={!order.canResend || (!phone.trim() && !address.trim())}
            onClick={() => onFix({ intent: "correct", phone, address })}
          >
            {t("order.fix.save")}
          </Button>
        </InlineStack>
      </BlockStack>
    </Card>
  );
}

export function TimelineCard({ timeline, timeZone }: { timeline: TimelineView[]; timeZone: string }) {
  const t = useT();
  const format = useFormat();
  const render = useMessage();
  // Times in the shop's zone, named once; each keeps its exact UTC instant and offset on hover.
  return (
    <Card>
      <BlockStack gap="300">
        <BlockStack gap="100">
          <Text as="h2" variant="headingMd">
            {t("order.timeline.title")}
          </Text>
          <Text as="p" variant="bodySm" tone="subdued">
            {t("order.timeline.zone", { zone: zoneName(t, timeZone) })}
          </Text>
        </BlockStack>
        {timeline.length === 0 ? (
          <Text as="p" tone="subdued">
            {t("order.timeline.empty")}
          </Text>
        ) : (
          <BlockStack gap="200">
            {timeline.map((event) => (
              <div key={event.id} data-timeline={event.kind}>
                {/* On a phone the time sits above the event, which keeps the width. */}
                <InlineGrid columns={{ xs: 1, sm: "9rem 1fr" }} gap={{ xs: "050", sm: "300" }}>
                  <Text as="span" variant="bodySm" tone="subdued">
                    <time
                      dateTime={event.at}
                      title={t("time.exact", {
                        time: format.dateTime(event.local, { year: true, seconds: true }),
                        offset: event.offset,
                      })}
                    >
                      {format.dateTime(event.local)}
                    </time>
                  </Text>
                  <BlockStack gap="0">
                    <Text as="span" fontWeight="semibold">
                      {timelineTitle(t, event)}
                    </Text>
                    <Text as="span" variant="bodySm">
                      {timelineText(render, t, event)}
                    </Text>
                    {event.consequences.map((c, i) => (
                      <Text key={i} as="span" variant="bodySm" tone="subdued">
                        <span data-timeline-consequence={c.kind}>
                          {"↳ "}
                          {timelineText(render, t, c)}
                        </span>
                      </Text>
                    ))}
                    {event.detail ? (
                      <Text as="span" variant="bodySm" tone="subdued">
                        {t(
                          event.kind === "written_back" || event.kind === "flow"
                            ? "timeline.detail.shopify"
                            : "timeline.detail.platform",
                        )}{" "}
                        <span lang="en" translate="no">
                          {event.detail}
                        </span>
                      </Text>
                    ) : null}
                  </BlockStack>
                </InlineGrid>
              </div>
            ))}
          </BlockStack>
        )}
      </BlockStack>
    </Card>
  );
}

/** "#1001" linking to its page, for lists of orders. */
export function OrderLink({ id, name }: { id: string; name: string }) {
  return (
    <span data-order-link={name}>
      <Link url={`/app/orders/${id}`}>{name}</Link>
    </span>
  );
}
