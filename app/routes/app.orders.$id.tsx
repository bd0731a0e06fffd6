/** One order: the lead, findings and anomalies with their fixes, corrections, timeline. */
import { useEffect } from "react";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { isRouteErrorResponse, useFetcher, useLoaderData, useRevalidator, useRouteError } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { Banner, BlockStack, Layout, Page } from "@shopify/polaris";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import { errorReferenceOf } from "../http/error-reference";
import { ErrorPage } from "../components/ErrorPage";
import prisma from "../db.server";
import { DEFAULT_TIME_ZONE } from "../analytics/days";
import { correctAndResend, loadOrderDetail, orderBelongsTo } from "../pages/order-detail.server";
import { fixCityGroup, fixFailure, fixSkuGroup, type FixFailureCode } from "../pages/anomalies.server";
import { resendOrder, sendAnyway, setOrderCustomerStanding } from "../sync/order-actions.server";
import { loadCustomerCardForOrder } from "../customers/card.server";
import { CustomerCard } from "../components/orders/CustomerCard";
import { holdReasonViewText, type HoldReasonView } from "../customers/hold-reason";
import { useT } from "../i18n/react";
import { pageTitle } from "../i18n/page-title";
import { CorrectionsCard, FindingsCard, LeadCard, StatusCard, TimelineCard } from "../components/orders/OrderCards";
import { fixErrorText } from "../components/orders/text";
import { LinkStateBadge } from "../components/StatusBadge";
import { ShopifyOrderCard } from "../components/orders/ShopifyOrderCard";
import { loadShopifyOrderStatus } from "../shopify/order-status.server";
import { formText } from "../http/form";

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  data ? pageTitle(matches, "order.title", { name: data.order.orderName }) : pageTitle(matches, "orders.title");

export const loader = withErrorReference(async ({ request, params }: LoaderFunctionArgs) => {
  const { session, admin } = await authenticate.admin(request);
  const order = await loadOrderDetail(prisma, session.shop, params.id ?? "", { timeZone: DEFAULT_TIME_ZONE });
  if (!order) throw new Response("Not found", { status: 404 });
  // A failed Shopify read is shown in its card; the rest of the page does not need Shopify.
  const [shopify, customer] = await Promise.all([loadShopifyOrderStatus(admin, order.orderId), loadCustomerCardForOrder(prisma, session.shop, order.id)]);
  // Held by the customer hold (the last decision on the timeline says so), not by a finding.
  const lastHold = order.timeline.filter((e) => e.kind === "customer_hold" || e.kind === "send_anyway" || e.kind === "resend").at(-1);
  const heldByCustomer: HoldReasonView | null =
    order.state === "held" && lastHold?.kind === "customer_hold"
      ? lastHold.customer?.kind === "customer_hold"
        ? { reason: lastHold.customer.reason }
        : { text: order.reason ?? lastHold.message }
      : null;
  return { order, shopify, customer, heldByCustomer };
});

type ActionResult = { ok: true; intent: string; resent: number } | { ok: false; intent: string; error: FixFailureCode };

const text = (form: FormData, name: string) => formText(form, name) ?? "";

export const action = withErrorReference(async ({ request, params }: ActionFunctionArgs): Promise<ActionResult> => {
  const { session } = await authenticate.admin(request);
  const shop = session.shop;
  const id = params.id ?? "";
  // Another shop's order (or none): not found, before any fix touches shop-wide rules.
  if (!(await orderBelongsTo(prisma, shop, id))) throw new Response("Not found", { status: 404 });
  const form = await request.formData();
  const intent = text(form, "intent");
  const actor = { by: "merchant" };
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
      case "trustCustomer":
      case "clearCustomer":
        await setOrderCustomerStanding(prisma, shop, id, intent === "blockCustomer" ? "blocked" : intent === "trustCustomer" ? "trusted" : null, actor);
        return { ok: true, intent, resent: 0 };
      case "fixSku":
        return { ok: true, intent, ...(await fixSkuGroup(prisma, shop, { key: text(form, "key"), platformSku: text(form, "platformSku") }, actor)) };
      case "fixCity":
        return { ok: true, intent, ...(await fixCityGroup(prisma, shop, { key: text(form, "key"), cityId: cityId ?? NaN }, actor)) };
      case "correct":
        return {
          ok: true,
          intent,
          ...(await correctAndResend(prisma, shop, id, { phone: text(form, "phone"), address: text(form, "address"), cityId }, actor)),
        };
    }
  } catch (error) {
    return { ok: false, intent, error: fixFailure(error) };
  }
  throw new Response("Unknown intent", { status: 400 });
});

export default function OrderPage() {
  const { order, shopify: shopifyOrder, customer, heldByCustomer } = useLoaderData<typeof loader>();
  const t = useT();
  const revalidator = useRevalidator();
  const shopify = useAppBridge();
  const fetcher = useFetcher<typeof action>({ key: `order-${order.id}` });
  const busy = fetcher.state !== "idle";
  const result = fetcher.state === "idle" ? fetcher.data : undefined;

  useEffect(() => {
    if (!result?.ok) return;
    if (result.intent === "sendAnyway") shopify.toast.show(t("customers.sentAnyway"));
    else if (result.intent.endsWith("Customer")) shopify.toast.show(t("customers.standingSaved"));
    else shopify.toast.show(result.intent === "resend" ? t("order.resent") : t("order.done", { count: result.resent }));
  }, [result, shopify, t]);

  const submit = (fields: Record<string, string>) => fetcher.submit(fields, { method: "post" });
  const waiting = order.canResend && order.state !== "created";
  // The findings say why in the merchant's language; the stored reason (English) is for the other cases.
  const showReason = Boolean(order.reason) && !heldByCustomer && !order.cancelledAt && !order.findings.some((f) => f.severity === "blocking");

  return (
    <Page
      title={t("order.title", { name: order.orderName })}
      titleMetadata={<LinkStateBadge state={order.state} />}
      backAction={{ content: t("orders.title"), url: "/app/orders" }}
      primaryAction={waiting ? { content: t("order.resend"), onAction: () => submit({ intent: "resend" }), loading: busy } : undefined}
      secondaryActions={[
        { content: t("order.openInShopify"), url: order.shopifyUrl, target: "_top" },
        // A created lead is sent again only on purpose: a second lead is made on the platform.
        ...(order.canResend && !waiting ? [{ content: t("order.resend"), onAction: () => submit({ intent: "resend" }), loading: busy }] : []),
      ]}
    >
      <Layout>
        {order.possibleDuplicate || order.cancelledAt || (result && !result.ok) || showReason || heldByCustomer ? (
          <Layout.Section>
            <BlockStack gap="300">
              {result && !result.ok ? (
                <Banner tone="critical">
                  <p>{fixErrorText(t, result.error)}</p>
                </Banner>
              ) : null}
              {order.possibleDuplicate ? (
                <Banner tone="warning" title={t("order.duplicate.title")}>
                  <p>{t("order.duplicate.body")}</p>
                </Banner>
              ) : null}
              {order.cancelledAt ? <Banner tone="info" title={t("order.cancelled")} /> : null}
              {heldByCustomer ? (
                <Banner
                  tone="warning"
                  title={t("customers.held.title")}
                  action={{ content: t("customers.held.sendAnyway"), onAction: () => submit({ intent: "sendAnyway" }), loading: busy }}
                >
                  <p data-hold-reason>{holdReasonViewText(t, heldByCustomer)}</p>
                </Banner>
              ) : null}
              {showReason ? (
                <Banner tone={order.state === "failed" || order.state === "invalid" ? "critical" : "info"}>
                  <p>{t("order.reason", { reason: order.reason ?? "" })}</p>
                </Banner>
              ) : null}
            </BlockStack>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <BlockStack gap="400">
            <FindingsCard order={order} onFix={submit} busy={busy} />
            <LeadCard lead={order.lead} sent={order.postedAt !== null} />
            <TimelineCard timeline={order.timeline} timeZone={order.timeZone} />
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <StatusCard order={order} />
            <CustomerCard orderId={order.id} customer={customer} onAction={submit} busy={busy} />
            <ShopifyOrderCard shopify={shopifyOrder} onRetry={() => revalidator.revalidate()} retrying={revalidator.state === "loading"} />
            <CorrectionsCard key={JSON.stringify(order.overrides)} order={order} onFix={submit} busy={busy} />
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const t = useT();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <Page title={t("orders.title")} backAction={{ content: t("orders.title"), url: "/app/orders" }}>
        <Banner tone="warning" title={t("orders.noResults.title")} />
      </Page>
    );
  }
  // Shopify's own thrown responses keep their headers; anything else is a page with a reference.
  if (isRouteErrorResponse(error) && errorReferenceOf(error) === null) return boundary.error(error);
  return <ErrorPage error={error} />;
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
