/**
 * One order: where it stands (a stepper), the one next action its state asks for,
 * what holds it with the fix in place, the lead, the customer (reached in one tap),
 * Shopify's view and the timeline. Whatever can make a second lead on the platform
 * asks first, in an App Bridge modal that says so.
 */
import { useEffect, useState } from "react";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useFetcher, useLoaderData, useRevalidator, useRouteError } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { Banner, BlockStack, Card, Layout, Page, Text } from "@shopify/polaris";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import { errorReferenceOf } from "../http/error-reference";
import { ErrorPage } from "../components/ErrorPage";
import prisma from "../db.server";
import { DEFAULT_TIME_ZONE } from "../analytics/days";
import { correctAndResend, loadOrderDetail, orderBelongsTo } from "../pages/order-detail.server";
import {
  checkCatalogueAgain,
  fixCityGroup,
  fixFailure,
  fixSkuGroup,
  type FixFailureCode,
} from "../pages/anomalies.server";
import { loadShopFacts } from "../pages/shop-facts.server";
import {
  cancelDuplicateInShopify,
  keepDuplicate,
  resendOrder,
  sendAnyway,
  setOrderCustomerStanding,
  settleMismatch,
} from "../sync/order-actions.server";
import { confirmedRelease, recheckHeldOrders, sendReleased, type Release } from "../sync/release-held.server";
import { ShopifyAdminError } from "../shopify/errors";
import { loadCustomerCardForOrder } from "../customers/card.server";
import { CustomerCard } from "../components/orders/CustomerCard";
import { DeliveryOddsCard } from "../components/orders/DeliveryOdds";
import { loadOrderOdds } from "../pages/delivery-odds.server";
import { ContactLinks, customerAmount } from "../components/contact/ContactLinks";
import { internationalMobile } from "../models/contact-message";
import { useFormat, useT } from "../i18n/react";
import { pageTitle } from "../i18n/page-title";
import { CorrectionsCard, FindingsCard, LeadCard, StatusCard, TimelineCard } from "../components/orders/OrderCards";
import { NextActionBanner } from "../components/orders/NextActionBanner";
import { StageStepper } from "../components/orders/StageStepper";
import { StageBadge } from "../components/orders/StageBadge";
import { ConfirmModal } from "../components/ConfirmModal";
import { ReleaseModal } from "../components/orders/ReleaseModal";
import { fixErrorText } from "../components/orders/text";
import { ShopifyOrderCard } from "../components/orders/ShopifyOrderCard";
import { loadShopifyOrderStatus } from "../shopify/order-status.server";
import { formText } from "../http/form";
import { stageOf } from "../models/order-stage";
import { holdReasonViewText } from "../customers/hold-reason";

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  data ? pageTitle(matches, "order.title", { name: data.order.orderName }) : pageTitle(matches, "orders.title");

export const loader = withErrorReference(async ({ request, params }: LoaderFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const order = await loadOrderDetail(prisma, session.shop, params.id ?? "", { timeZone: DEFAULT_TIME_ZONE });
  if (!order) throw new Response("Not found", { status: 404 });
  // A failed Shopify read is shown in its card; the rest of the page does not need Shopify.
  const [shopify, customer, facts] = await Promise.all([
    loadShopifyOrderStatus(admin, order.orderId),
    loadCustomerCardForOrder(prisma, session.shop, order.id),
    loadShopFacts(prisma, session.shop),
  ]);
  // Why the customer hold keeps it back, in the merchant's language (the last hold step on the timeline).
  const lastHold = order.timeline.filter((e) => e.kind === "customer_hold").at(-1);
  const holdReason = order.heldByCustomer
    ? lastHold?.customer?.kind === "customer_hold"
      ? { reason: lastHold.customer.reason }
      : { text: order.reason ?? lastHold?.message ?? "" }
    : null;
  const odds = await loadOrderOdds(prisma, session.shop, order.id, holdReason);
  return { order, shopify, customer, holdReason, contact: facts.contact, odds };
});

type ActionResult =
  | { ok: true; intent: string; resent: number; release?: Release; sent?: number }
  | { ok: false; intent: string; error: FixFailureCode | "shopify_failed" };

const text = (form: FormData, name: string) => formText(form, name) ?? "";

export const action = withErrorReference(async ({ request, params }: ActionFunctionArgs): Promise<ActionResult> => {
  const { session, admin } = await authenticate.admin(request);
  const shop = session.shop;
  const id = params.id ?? "";
  // Another shop's order (or none): not found, before any fix touches shop-wide rules.
  if (!(await orderBelongsTo(prisma, shop, id))) throw new Response("Not found", { status: 404 });
  const form = await request.formData();
  const intent = text(form, "intent");
  // A second lead is made only when the merchant confirmed it in the modal that says so; an old order
  // is sent only when the merchant confirmed it knowing its age.
  const actor = {
    by: "merchant",
    secondLead: text(form, "secondLead") === "confirmed",
    sendStale: text(form, "sendStale") === "confirmed",
  };
  const cityId = text(form, "cityId") ? Number(text(form, "cityId")) : undefined;
  try {
    switch (intent) {
      case "resend":
        await resendOrder(prisma, shop, id, actor);
        return { ok: true, intent, resent: 1 };
      case "sendAnyway":
        await sendAnyway(prisma, shop, id, actor);
        return { ok: true, intent, resent: 1 };
      case "blockCustomer":
      case "clearCustomer":
        await setOrderCustomerStanding(prisma, shop, id, intent === "blockCustomer" ? "blocked" : null, actor);
        return { ok: true, intent, resent: 0 };
      case "trustCustomer": {
        await setOrderCustomerStanding(prisma, shop, id, "trusted", actor);
        // A trusted customer is never held: the orders the customer hold kept back can go.
        const link = await prisma.orderLink.findFirst({ where: { id, shop }, select: { phone: true } });
        const release = link?.phone
          ? await recheckHeldOrders(prisma, shop, { kind: "customer", phone: link.phone })
          : undefined;
        return { ok: true, intent, resent: 0, release };
      }
      case "sendReleased": {
        const { ids, count } = confirmedRelease(form);
        const { sent } = await sendReleased(prisma, shop, ids, actor, count);
        return { ok: true, intent, resent: sent, sent };
      }
      case "fixSku":
        return {
          ok: true,
          intent,
          ...(await fixSkuGroup(
            prisma,
            shop,
            { key: text(form, "key"), platformSku: text(form, "platformSku") },
            actor,
          )),
        };
      case "checkCatalogue":
        return { ok: true, intent, ...(await checkCatalogueAgain(prisma, shop, text(form, "key"), actor)) };
      case "fixCity":
        return {
          ok: true,
          intent,
          ...(await fixCityGroup(prisma, shop, { key: text(form, "key"), cityId: cityId ?? NaN }, actor)),
        };
      case "correct":
        return {
          ok: true,
          intent,
          ...(await correctAndResend(
            prisma,
            shop,
            id,
            { phone: text(form, "phone"), address: text(form, "address"), cityId },
            actor,
          )),
        };
      case "keepDuplicate":
        await keepDuplicate(prisma, shop, id, actor);
        return { ok: true, intent, resent: 0 };
      case "settle":
        await settleMismatch(prisma, shop, id, actor);
        return { ok: true, intent, resent: 0 };
      case "cancelDuplicate":
        await cancelDuplicateInShopify(prisma, admin, shop, id, actor);
        return { ok: true, intent, resent: 0 };
    }
  } catch (error) {
    if (error instanceof ShopifyAdminError) return { ok: false, intent, error: "shopify_failed" };
    return { ok: false, intent, error: fixFailure(error) };
  }
  throw new Response("Unknown intent", { status: 400 });
});

type Confirming = "secondLead" | "sendAnyway" | "sendStale" | "cancelDuplicate" | "release" | null;

export default function OrderPage() {
  const { order, shopify: shopifyOrder, customer, holdReason, contact, odds } = useLoaderData<typeof loader>();
  const t = useT();
  const format = useFormat();
  const revalidator = useRevalidator();
  const shopify = useAppBridge();
  const fetcher = useFetcher<typeof action>({ key: `order-${order.id}` });
  const busy = fetcher.state !== "idle";
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
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

  const submit = (fields: Record<string, string>) => fetcher.submit(fields, { method: "post" });
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
  const stage = stageOf({
    state: order.state,
    confirmationStatus: order.confirmationStatus,
    shippingStatus: order.shippingStatus,
    cancelled: order.cancelledAt !== null,
  });
  const unsent = !order.leadRef || (order.state !== "created" && order.state !== "damaged");
  const inlinePhoneFix = order.findings.some((f) => f.fix === "phone");
  const bannerListsAnomalies = next.kind === "sellerSpace" || next.kind === "decideDuplicate";

  return (
    <Page
      title={t("order.title", { name: order.orderName })}
      titleMetadata={<StageBadge stage={stage} detail={order} />}
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
            {result && !result.ok ? (
              <Banner tone="critical">
                <p>
                  {result.error === "shopify_failed"
                    ? t("order.duplicate.shopifyFailed")
                    : fixErrorText(t, result.error)}
                </p>
              </Banner>
            ) : null}
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
            {odds ? <DeliveryOddsCard view={odds} /> : null}
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

export function ErrorBoundary() {
  const error = useRouteError();
  const t = useT();
  if (isRouteErrorResponse(error) && error.status === 404) {
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
  // Shopify's own thrown responses keep their headers; anything else is a page with a reference.
  if (isRouteErrorResponse(error) && errorReferenceOf(error) === null) return boundary.error(error);
  return <ErrorPage error={error} />;
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
