/**
 * The one thing the order asks of the merchant now (models/next-action), in plain
 * words: what holds it and where the fix is, why the platform refused or flagged
 * it and the merchant's options, and the decision a duplicate needs. A lead on
 * the platform is never edited or cancelled from here: the banner says so and
 * points to the platform's seller space.
 */
import { Banner, BlockStack, Button, InlineStack, Link, List, Text } from "@shopify/polaris";
import type { OrderDetail } from "../../pages/order-detail.server";
import type { HoldReasonView } from "../../customers/hold-reason";
import { holdReasonViewText } from "../../customers/hold-reason";
import { anomalyFixOf } from "../../models/anomaly-codes";
import { refusedFieldOf } from "../../models/refusal";
import type { ContactFacts } from "../../models/contact-message";
import { useFormat, useMessage, useT } from "../../i18n/react";
import { ContactLinks, type ContactSettings } from "../contact/ContactLinks";
import { refusalText } from "./attention-text";
import { anomalyText, codeLabel } from "./text";
import { readyReasonOf } from "../../models/attention";

interface Props {
  order: OrderDetail;
  holdReason: HoldReasonView | null;
  contact: ContactSettings;
  facts: ContactFacts;
  busy: boolean;
  onKeepDuplicate(): void;
  onCancelDuplicate(): void;
  onSendNewLead(): void;
  /** The merchant stopped or corrected the lead in the seller space: the disagreement is settled. */
  onSettle(): void;
}

export function NextActionBanner({
  order,
  holdReason,
  contact,
  facts,
  busy,
  onKeepDuplicate,
  onCancelDuplicate,
  onSendNewLead,
  onSettle,
}: Props) {
  const t = useT();
  const format = useFormat();
  const render = useMessage();
  const next = order.nextAction;
  const contactLinks = order.erased ? null : (
    <ContactLinks phone={order.phone} facts={facts} contact={contact} bothLanguages />
  );
  const wrap = (node: JSX.Element) => <div data-next-action={next.kind}>{node}</div>;
  switch (next.kind) {
    case "fix": {
      const blocking = order.findings.filter((f) => f.severity === "blocking");
      return wrap(
        <Banner tone="warning" title={t("next.fix.title", { problem: codeLabel(t, blocking[0]?.code ?? "") })}>
          <p>{t("next.fix.body")}</p>
        </Banner>,
      );
    }
    case "send":
      return wrap(
        <Banner tone="info" title={t("next.send.title")}>
          <p>{t(`attention.ready.${readyReasonOf(order.reason)}`)}</p>
        </Banner>,
      );
    case "sendStale":
      return wrap(
        <Banner tone="warning" title={t("next.stale.title", { days: order.ageDays })}>
          <BlockStack gap="200">
            <p>
              {t("next.stale.body", {
                date: format.date(order.placedLocal),
                limit: order.staleOrderDays,
                amount: order.amountCents === null ? t("common.unknown") : format.money(order.amountCents),
              })}
            </p>
            <p>{t("next.stale.call")}</p>
            {contactLinks}
          </BlockStack>
        </Banner>,
      );
    case "stopLead": {
      const what = order.mismatch ?? "cancelled";
      const ref = order.leadRef ?? "";
      return wrap(
        <Banner tone="critical" title={t(`next.stopLead.title.${what}`)}>
          <BlockStack gap="200">
            <p data-stop-lead="what">{t(`next.stopLead.what.${what}`, { ref })}</p>
            <p data-stop-lead="cost">
              {order.deliveryFeeCents === null
                ? t("next.stopLead.costUnknown")
                : t("next.stopLead.cost", { fee: format.money(order.deliveryFeeCents) })}
            </p>
            <p data-stop-lead="way">
              {t(what === "edited" ? "next.stopLead.wayEdited" : "next.stopLead.way", { ref })}
            </p>
            <InlineStack gap="200" blockAlign="center">
              {order.sellerSpaceUrl ? (
                <span data-stop-lead="seller-space">
                  <Button url={order.sellerSpaceUrl} target="_blank" variant="primary">
                    {t("next.stopLead.open", { ref })}
                  </Button>
                </span>
              ) : (
                <Text as="span" variant="bodySm" tone="subdued">
                  <span data-stop-lead="no-address">
                    {t("next.stopLead.noAddress")} <Link url="/app/settings#write-back">{t("nav.settings")}</Link>
                  </span>
                </Text>
              )}
              <span data-action="settle">
                <ButtonLike onClick={onSettle} disabled={busy} label={t("next.stopLead.settled")} />
              </span>
            </InlineStack>
          </BlockStack>
        </Banner>,
      );
    }
    case "sendAnyway":
      return wrap(
        <Banner
          tone="warning"
          title={t(
            holdReason && "reason" in holdReason && holdReason.reason.code === "delivery_odds"
              ? "odds.held.title"
              : "customers.held.title",
          )}
        >
          <BlockStack gap="200">
            <p data-hold-reason>{holdReason ? holdReasonViewText(t, holdReason) : ""}</p>
            <p>{t("next.sendAnyway.body")}</p>
            {contactLinks}
          </BlockStack>
        </Banner>,
      );
    case "retry":
      return wrap(
        <Banner tone="critical" title={t("next.retry.title")}>
          <p>{t("next.retry.body")}</p>
        </Banner>,
      );
    case "fixRefusal": {
      const family = refusedFieldOf(order.refusal?.field ?? null);
      return wrap(
        <Banner tone="critical" title={t("next.refused.title")}>
          <BlockStack gap="200">
            <p data-refusal>{refusalText(t, order.refusal)}</p>
            <p>{t(`next.refused.fix.${family}`)}</p>
          </BlockStack>
        </Banner>,
      );
    }
    case "decideDuplicate": {
      const earlier = order.duplicateOf;
      return wrap(
        <Banner tone="warning" title={t("next.duplicate.title")}>
          <BlockStack gap="200">
            <p data-duplicate-of={earlier?.ref ?? ""}>
              {earlier ? (
                earlier.orderId ? (
                  <>
                    {t("next.duplicate.repeats", { ref: earlier.ref })}{" "}
                    <Link url={`/app/orders/${earlier.orderId}`}>
                      {t("next.duplicate.openEarlier", { name: earlier.orderName ?? earlier.ref })}
                    </Link>
                  </>
                ) : (
                  t("next.duplicate.repeats", { ref: earlier.ref })
                )
              ) : (
                t("next.duplicate.repeatsUnknown")
              )}
            </p>
            <p>{t("next.duplicate.body")}</p>
            <p>{t("next.duplicate.sellerSpace", { ref: order.leadRef ?? "" })}</p>
            {contactLinks}
            <InlineStack gap="200">
              <span data-action="keep-both">
                <ButtonLike onClick={onKeepDuplicate} disabled={busy} label={t("next.duplicate.keep")} />
              </span>
              <span data-action="cancel-duplicate">
                <ButtonLike onClick={onCancelDuplicate} disabled={busy} label={t("next.duplicate.cancel")} critical />
              </span>
            </InlineStack>
          </BlockStack>
        </Banner>,
      );
    }
    case "sellerSpace": {
      if (order.cancelledAt) {
        return wrap(
          <Banner tone="warning" title={t("next.cancelledLead.title")}>
            <p>{t("next.cancelledLead.body", { ref: order.leadRef ?? "" })}</p>
          </Banner>,
        );
      }
      const fix = anomalyFixOf(order.anomalies.map((a) => a.code));
      return wrap(
        <Banner tone="warning" title={t("next.flagged.title")}>
          <BlockStack gap="200">
            <List type="bullet">
              {order.anomalies.map((a, i) => (
                <List.Item key={`${a.code}-${i}`}>{anomalyText(render, a)}</List.Item>
              ))}
            </List>
            <p>{t("next.flagged.waits", { ref: order.leadRef ?? "" })}</p>
            <Text as="p" fontWeight="semibold">
              {t("next.flagged.options")}
            </Text>
            <List type="number">
              <List.Item>{t("next.flagged.option.sellerSpace")}</List.Item>
              {fix === "mapProduct" ? <List.Item>{t("next.flagged.option.mapProduct")}</List.Item> : null}
              {fix === "learnCity" ? <List.Item>{t("next.flagged.option.learnCity")}</List.Item> : null}
              <List.Item>{t("next.flagged.option.cancel")}</List.Item>
              <List.Item>
                {t("next.flagged.option.newLead")} <Link onClick={onSendNewLead}>{t("next.flagged.newLead")}</Link>
              </List.Item>
            </List>
          </BlockStack>
        </Banner>,
      );
    }
    case "wait":
      return wrap(
        <Banner tone="info" title={t("next.wait.title")}>
          <p>{t("next.wait.body")}</p>
        </Banner>,
      );
    default:
      return order.duplicateKept
        ? wrap(
            <Banner tone="info" title={t("next.kept.title")}>
              <p>{t("next.kept.body")}</p>
            </Banner>,
          )
        : null;
  }
}

/** A plain Polaris button inside a banner (Banner's own actions allow no tone). */
function ButtonLike({
  onClick,
  disabled,
  label,
  critical = false,
}: {
  onClick(): void;
  disabled: boolean;
  label: string;
  critical?: boolean;
}) {
  return (
    <Button onClick={onClick} disabled={disabled} tone={critical ? "critical" : undefined}>
      {label}
    </Button>
  );
}
