/**
 * One order: where it stands (a stepper), the one next action its state asks for,
 * what holds it with the fix in place, the lead, the customer (reached in one tap),
 * Shopify's view and the timeline. Whatever can make a second lead on the platform
 * asks first, in an App Bridge modal that says so.
 */
import { useEffect, useState } from "react";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { Banner, BlockStack, Card, Layout, Page, Text } from "@shopify/polaris";
import type { orderPageData, orderPageAction } from "../../pages/order-page.server";
import type { Release } from "../../sync/release-held.server";
import { internationalMobile } from "../../models/contact-message";
import { shopifyStopOf, stageOf } from "../../models/order-stage";
import { oddsStandingOf } from "../../odds/standing";
import { holdReasonViewText } from "../../customers/hold-reason";
import { useFormat, useT } from "../../i18n/react";
import { ConfirmModal } from "../ConfirmModal";
import { usePageAction } from "../usePageAction";
import { ContactLinks, customerAmount } from "../contact/ContactLinks";
import { CustomerCard } from "./CustomerCard";
import { DeliveryOddsCard } from "./DeliveryOdds";
import { CorrectionsCard, FindingsCard, LeadCard, StatusCard, TimelineCard } from "./OrderCards";
import { NextActionBanner } from "./NextActionBanner";
import { StageStepper } from "./StageStepper";
import { StageBadge } from "./StageBadge";
import { ReleaseModal } from "./ReleaseModal";
import { ShopifyOrderCard } from "./ShopifyOrderCard";
import { ActionFailureBanner } from "./ActionFailureBanner";

type Confirming = "secondLead" | "sendAnyway" | "sendStale" | "cancelDuplicate" | "release" | null;

export function OrderPage() {
  const { order, shopify: shopifyOrder, customer, holdReason, contact, odds } = useLoaderData<typeof orderPageData>();
  const t = useT();
  const format = useFormat();
  const revalidator = useRevalidator();
  const shopify = useAppBridge();
  const { busy, result, submit } = usePageAction<typeof orderPageAction>(`order-${order.id}`);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [release, setRelease] = useState<Release | null>(null);

  useEffect(() => {
    if (!result?.ok) return;
    setConfirming(null);
    if (result.intent.endsWith("Customer")) shopify.toast.show(t("customers.standingSaved"));
    // The orders a trusted customer or a fix freed (more than one) go on their confirmation.
    if (result.release && result.release.orders.length > 0) {
      setRelease(result.release);
      setConfirming("release");
    } else if (result.intent === "sendAnyway") shopify.toast.show(t("customers.sentAnyway"));
    else if (result.intent.endsWith("Customer")) return;
    else if (result.intent === "keepDuplicate") shopify.toast.show(t("order.duplicate.kept"));
    else if (result.intent === "settle") shopify.toast.show(t("order.settled"));
    else if (result.intent === "cancelDuplicate") shopify.toast.show(t("order.duplicate.cancelled"));
    else if (result.intent === "sendReleased") return;
    else if (result.intent === "checkCatalogue" && result.resent === 0)
      shopify.toast.show(t("suggestions.checkAgain.stillMissing"));
    else shopify.toast.show(result.intent === "resend" ? t("order.resent") : t("order.done", { count: result.resent }));
  }, [result, shopify, t]);

  const next = order.nextAction;
  const resend = () => submit({ intent: "resend" });
  // The page's one primary action, when the next action is a send of some kind.
  const primary =
    next.kind === "send"
      ? { content: t("order.action.send"), onAction: resend, loading: busy }
      : next.kind === "retry"
        ? { content: t("order.action.retry"), onAction: resend, loading: busy }
        : next.kind === "sendAnyway"
          ? { content: t("customers.held.sendAnyway"), onAction: () => setConfirming("sendAnyway") }
          : next.kind === "sendStale"
            ? { content: t("customers.held.sendAnyway"), onAction: () => setConfirming("sendStale") }
            : undefined;
  // "Send again" only where it is not the primary action and not pointless (a held order is sent by its fix).
  const offerResend =
    next.canResend && ["none", "sellerSpace", "fixRefusal"].includes(next.kind) && order.state !== "received";
  const facts = {
    name: order.lead?.customerName ?? null,
    order: order.orderName,
    city: order.lead?.cityName ?? null,
    amount: order.amountCents === null ? null : customerAmount(order.amountCents),
  };
  const stageInput = {
    state: order.state,
    confirmationStatus: order.confirmationStatus,
    shippingStatus: order.shippingStatus,
    cancelled: order.cancelledAt !== null,
  };
  const stage = stageOf(stageInput);
  const shopifyStop = shopifyStopOf({ ...stageInput, refunded: order.mismatch === "refunded" });
  const unsent = !order.leadRef || (order.state !== "created" && order.state !== "damaged");
  const inlinePhoneFix = order.findings.some((f) => f.fix === "phone");
  const bannerListsAnomalies = next.kind === "sellerSpace" || next.kind === "decideDuplicate";

  return (
    <Page
      title={t("order.title", { name: order.orderName })}
      titleMetadata={<StageBadge stage={stage} detail={order} shopify={shopifyStop} showPlatform />}
      backAction={{ content: t("orders.title"), url: "/app/orders" }}
      primaryAction={primary}
      secondaryActions={[
        { content: t("order.openInShopify"), url: order.shopifyUrl, target: "_top" },
        ...(offerResend
          ? [
              {
                content: t("order.resend"),
                onAction: next.secondLead ? () => setConfirming("secondLead") : resend,
                loading: busy && !confirming,
              },
            ]
          : []),
      ]}
    >
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {result && !result.ok ? <ActionFailureBanner error={result.error} /> : null}
            <StageStepper
              input={{
                state: order.state,
                confirmationStatus: order.confirmationStatus,
                shippingStatus: order.shippingStatus,
                cancelled: order.cancelledAt !== null,
              }}
            />
            <NextActionBanner
              order={order}
              holdReason={holdReason}
              contact={contact}
              facts={facts}
              busy={busy}
              onKeepDuplicate={() => submit({ intent: "keepDuplicate" })}
              onCancelDuplicate={() => setConfirming("cancelDuplicate")}
              onSendNewLead={() => setConfirming("secondLead")}
              onSettle={() => submit({ intent: "settle" })}
            />
            {order.possibleDuplicate ? (
              <Banner tone="warning" title={t("order.duplicate.title")}>
                <p>{t("order.duplicate.body")}</p>
              </Banner>
            ) : null}
            {/* On a phone the sidebar comes last: reaching the customer comes right after what to do. */}
            {order.erased ||
            !internationalMobile(order.phone) ||
            ["sendAnyway", "decideDuplicate", "sendStale"].includes(next.kind) ? null : (
              <div className="cod-phone-only" data-contact-top>
                <Card>
                  <BlockStack gap="100">
                    <Text as="h2" variant="headingSm">
                      {t("contact.title")}
                    </Text>
                    <ContactLinks phone={order.phone} facts={facts} contact={contact} showNumber bothLanguages />
                  </BlockStack>
                </Card>
              </div>
            )}
          </BlockStack>
        </Layout.Section>
        <Layout.Section>
          <BlockStack gap="400">
            {order.findings.length > 0 || (order.anomalies.length > 0 && !bannerListsAnomalies) ? (
              <FindingsCard
                order={order}
                onFix={submit}
                busy={busy}
                fixable={unsent && next.canResend}
                showAnomalies={!bannerListsAnomalies}
              />
            ) : null}
            <LeadCard lead={order.lead} sent={order.postedAt !== null} />
            <TimelineCard timeline={order.timeline} timeZone={order.timeZone} />
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <StatusCard order={order} />
            {odds ? (
              <DeliveryOddsCard
                view={odds}
                standing={oddsStandingOf({
                  state: order.state,
                  confirmationStatus: order.confirmationStatus,
                  shippingStatus: order.shippingStatus,
                  cancelled: order.cancelledAt !== null,
                  refunded: order.mismatch === "refunded",
                })}
                deliveryFeeCents={order.deliveryFeeCents}
              />
            ) : null}
            <CustomerCard
              orderId={order.id}
              customer={customer}
              onAction={submit}
              busy={busy}
              contact={order.erased ? null : { phone: order.phone, facts, settings: contact }}
            />
            <ShopifyOrderCard
              shopify={shopifyOrder}
              onRetry={() => revalidator.revalidate()}
              retrying={revalidator.state === "loading"}
            />
            {/* Corrections apply before sending only: a lead on the platform is corrected in its seller space. */}
            {unsent && next.canResend && !inlinePhoneFix && !order.heldByCustomer ? (
              <CorrectionsCard key={JSON.stringify(order.overrides)} order={order} onFix={submit} busy={busy} />
            ) : null}
          </BlockStack>
        </Layout.Section>
      </Layout>

      <ConfirmModal
        id="confirm-second-lead"
        open={confirming === "secondLead"}
        title={t("order.secondLead.title")}
        body={[t("order.secondLead.body", { ref: order.leadRef ?? "" }), t("order.secondLead.sellerSpace")]}
        confirmLabel={t("order.secondLead.confirm")}
        destructive
        busy={busy}
        onConfirm={() => submit({ intent: "resend", secondLead: "confirmed" })}
        onClose={() => setConfirming(null)}
      />
      <ConfirmModal
        id="confirm-send-anyway"
        open={confirming === "sendAnyway"}
        title={t("order.sendAnyway.title")}
        body={[holdReason ? holdReasonViewText(t, holdReason) : "", t("order.sendAnyway.body")].filter(Boolean)}
        confirmLabel={t("customers.held.sendAnyway")}
        busy={busy}
        onConfirm={() => submit({ intent: "sendAnyway" })}
        onClose={() => setConfirming(null)}
      />
      <ConfirmModal
        id="confirm-send-stale"
        open={confirming === "sendStale"}
        title={t("order.stale.confirm.title")}
        body={[
          t("order.stale.confirm.body", {
            name: order.orderName,
            days: order.ageDays,
            amount: order.amountCents === null ? t("common.unknown") : format.money(order.amountCents),
            limit: order.staleOrderDays,
          }),
          t("next.stale.call"),
        ]}
        confirmLabel={t("order.stale.confirm")}
        busy={busy}
        onConfirm={() => submit({ intent: "resend", sendStale: "confirmed" })}
        onClose={() => setConfirming(null)}
      />
      <ConfirmModal
        id="confirm-cancel-duplicate"
        open={confirming === "cancelDuplicate"}
        title={t("order.cancelDuplicate.title", { name: order.orderName })}
        body={[t("order.cancelDuplicate.body"), t("order.cancelDuplicate.lead", { ref: order.leadRef ?? "" })]}
        confirmLabel={t("order.cancelDuplicate.confirm")}
        destructive
        busy={busy}
        onConfirm={() => submit({ intent: "cancelDuplicate" })}
        onClose={() => setConfirming(null)}
      />
      <ReleaseModal release={confirming === "release" ? release : null} onClose={() => setConfirming(null)} />
    </Page>
  );
}

/** An order this shop does not have (another shop's, or none): back to the orders. */
export function OrderNotFound() {
  const t = useT();
  return (
    <Page title={t("orders.title")} backAction={{ content: t("orders.title"), url: "/app/orders" }}>
      <Banner
        tone="warning"
        title={t("orders.noResults.title")}
        action={{ content: t("orders.title"), url: "/app/orders" }}
      />
    </Page>
  );
}
