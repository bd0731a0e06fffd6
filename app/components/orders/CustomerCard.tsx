/**
 * The order's customer as the platform saw them on earlier leads: the delivery
 * record, the last five orders, and the merchant's block/trust (and "send
 * anyway" when the record held this order).
 */
import { Badge, BlockStack, Button, Card, InlineStack, Link, Text } from "@shopify/polaris";
import { useDownload } from "../useDownload";
import type { CustomerCardView } from "../../customers/card.server";
import type { DeliveryOutcome } from "../../customers/outcome";
import type { RiskLevel } from "../../customers/risk";
import type { MessageKey } from "../../i18n";
import { useFormat, useT } from "../../i18n/react";
import type { ContactFacts } from "../../models/contact-message";
import { ContactLinks, type ContactSettings } from "../contact/ContactLinks";

const RISK_TONE: Record<RiskLevel, "critical" | "warning" | "success" | "info" | undefined> = {
  blocked: "critical",
  high: "critical",
  medium: "warning",
  low: "success",
  trusted: "success",
  new: undefined,
};

export const riskKey = (risk: RiskLevel) => `customers.risk.${risk}` as MessageKey;
export const outcomeKey = (outcome: DeliveryOutcome) => `customers.outcome.${outcome}` as MessageKey;

export function RiskBadge({ risk }: { risk: RiskLevel }) {
  const t = useT();
  return <Badge tone={RISK_TONE[risk]}>{t(riskKey(risk))}</Badge>;
}

const COUNTED: readonly DeliveryOutcome[] = [
  "delivered",
  "returned",
  "refused",
  "cancelled",
  "wrong_number",
  "in_progress",
];

export function CustomerCard({
  orderId,
  customer,
  onAction,
  busy,
  contact = null,
}: {
  /** The order whose customer this is (the export is asked through it, scoped to the shop). */
  orderId: string;
  customer: CustomerCardView | null;
  onAction: (fields: Record<string, string>) => void;
  busy: boolean;
  /** Call and WhatsApp links; null for an erased customer. */
  contact?: { phone: string | null; facts: ContactFacts; settings: ContactSettings } | null;
}) {
  const t = useT();
  const formatter = useFormat();
  const { downloading: exporting, start } = useDownload<"json" | "csv">(t("customers.card.exportFailed"));
  const exportAs = (format: "json" | "csv") => {
    if (!customer) return;
    start(
      format,
      `/app/orders/${encodeURIComponent(orderId)}/customer-export?format=${format}`,
      `customer-${customer.phoneKey}.${format}`,
    );
  };
  if (!customer) {
    return (
      <Card>
        <BlockStack gap="200">
          <Text as="h2" variant="headingMd">
            {t("customers.card.title")}
          </Text>
          <Text as="p" tone="subdued">
            {t("customers.card.noPhone")}
          </Text>
        </BlockStack>
      </Card>
    );
  }
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {t("customers.card.title")}
          </Text>
          <RiskBadge risk={customer.risk} />
        </InlineStack>
        {contact ? (
          <ContactLinks
            phone={contact.phone}
            facts={contact.facts}
            contact={contact.settings}
            showNumber
            bothLanguages
          />
        ) : null}
        <Text as="p">{t("customers.card.orders", { count: customer.orders })}</Text>
        <BlockStack gap="100">
          {/* Only what happened: a new customer's six zeros say nothing. */}
          {COUNTED.filter((o) => customer.counts[o] > 0).map((o) => (
            <Text as="p" key={o} variant="bodySm">
              {t("customers.card.count", { outcome: t(outcomeKey(o)), count: formatter.integer(customer.counts[o]) })}
            </Text>
          ))}
        </BlockStack>
        <Text as="p" variant="bodySm">
          {t("customers.card.collected", { amount: formatter.money(customer.collectedCents) })}
        </Text>
        {customer.shared ? (
          <div data-shared-record>
            <BlockStack gap="100">
              <Text as="h3" variant="headingSm">
                {t("customers.card.shared", { stores: formatter.integer(customer.shared.stores) })}
              </Text>
              <Text as="p" variant="bodySm">
                {COUNTED.filter((o) => customer.shared!.counts[o] > 0)
                  .map((o) =>
                    t("customers.card.count", {
                      outcome: t(outcomeKey(o)),
                      count: formatter.integer(customer.shared!.counts[o]),
                    }),
                  )
                  .join(" · ")}
              </Text>
            </BlockStack>
          </div>
        ) : null}
        {customer.recent.length ? (
          <BlockStack gap="100">
            <Text as="h3" variant="headingSm">
              {t("customers.card.recent")}
            </Text>
            {customer.recent.map((r) => (
              <InlineStack key={r.id} gap="200" blockAlign="center">
                <Link url={`/app/orders/${r.id}`}>{r.orderName}</Link>
                <Text as="span" variant="bodySm" tone="subdued">
                  {r.outcome ? t(outcomeKey(r.outcome)) : t("customers.outcome.notSent")}
                </Text>
              </InlineStack>
            ))}
          </BlockStack>
        ) : null}
        <InlineStack gap="200">
          <Button onClick={() => exportAs("json")} loading={exporting === "json"} disabled={exporting !== null}>
            {t("customers.card.exportJson")}
          </Button>
          <Button onClick={() => exportAs("csv")} loading={exporting === "csv"} disabled={exporting !== null}>
            {t("customers.card.exportCsv")}
          </Button>
        </InlineStack>
        <InlineStack gap="200">
          {customer.standing !== "blocked" ? (
            <Button tone="critical" onClick={() => onAction({ intent: "blockCustomer" })} disabled={busy}>
              {t("customers.card.block")}
            </Button>
          ) : null}
          {customer.standing !== "trusted" ? (
            <Button onClick={() => onAction({ intent: "trustCustomer" })} disabled={busy}>
              {t("customers.card.trust")}
            </Button>
          ) : null}
          {customer.standing ? (
            <Button variant="plain" onClick={() => onAction({ intent: "clearCustomer" })} disabled={busy}>
              {t("customers.card.clear")}
            </Button>
          ) : null}
        </InlineStack>
      </BlockStack>
    </Card>
  );
}
