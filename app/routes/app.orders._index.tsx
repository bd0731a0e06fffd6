/** Orders: every Shopify order the app received, with its lead, statuses and problems. */
import { useEffect } from "react";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { Card, EmptyState, Page } from "@shopify/polaris";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import prisma from "../db.server";
import { countFailedOrders, DEFAULT_SORT, parseOrdersSearch, queryOrders } from "../pages/orders.server";
import { loadShopFacts } from "../pages/shop-facts.server";
import { isPhoneUserAgent } from "../http/user-agent";
import { EMPTY_STATE_IMAGE } from "../components/EmptyStateImage";
import { fixFailure, resendOrders, retryFailedOrders, type FixFailureCode } from "../pages/anomalies.server";
import { DEFAULT_TIME_ZONE } from "../analytics/days";
import { useT } from "../i18n/react";
import { OrdersTable } from "../components/orders/OrdersTable";
import { fixErrorText } from "../components/orders/text";

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const search = parseOrdersSearch(new URL(request.url).searchParams);
  const [page, failedCount, facts] = await Promise.all([
    queryOrders(prisma, session.shop, search, { timeZone: DEFAULT_TIME_ZONE }),
    countFailedOrders(prisma, session.shop),
    loadShopFacts(prisma, session.shop),
  ]);
  const { after, before, limit: _limit, sort = DEFAULT_SORT, ...filter } = search;
  return {
    page,
    filter: { ...filter, sort },
    failedCount,
    firstPage: !after && !before,
    timeZone: DEFAULT_TIME_ZONE,
    connected: facts.connected,
    contact: facts.contact,
    phoneLayout: isPhoneUserAgent(request.headers.get("User-Agent")),
  };
});

type ActionResult =
  { ok: true; intent: string; resent: number; skipped: number } | { ok: false; intent: string; error: FixFailureCode };

export const action = withErrorReference(async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  const { session } = await authenticate.admin(request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const ids = String(form.get("ids") ?? "")
    .split(",")
    .map((id) => id.trim())
    .filter(Boolean);
  const actor = { by: "merchant" };
  try {
    if (intent === "resend") return { ok: true, intent, ...(await resendOrders(prisma, session.shop, ids, actor)) };
    if (intent === "retryFailed") {
      // No ids: every failed order of the shop.
      return {
        ok: true,
        intent,
        ...(await retryFailedOrders(prisma, session.shop, ids.length ? ids : undefined, actor)),
      };
    }
  } catch (error) {
    return { ok: false, intent, error: fixFailure(error) };
  }
  throw new Response("Unknown intent", { status: 400 });
});

export default function Orders() {
  const { page, filter, failedCount, firstPage, connected, contact, phoneLayout } = useLoaderData<typeof loader>();
  const t = useT();
  const shopify = useAppBridge();
  const fetcher = useFetcher<typeof action>({ key: "orders-bulk" });

  useEffect(() => {
    const result = fetcher.data;
    if (!result || fetcher.state !== "idle") return;
    if (!result.ok) shopify.toast.show(fixErrorText(t, result.error), { isError: true });
    else if (result.resent === 0) shopify.toast.show(t("orders.toast.nothing"), { isError: true });
    else if (result.skipped > 0)
      shopify.toast.show(t("orders.toast.resentSkipped", { count: result.resent, skipped: result.skipped }));
    else shopify.toast.show(t("orders.toast.resent", { count: result.resent }));
  }, [fetcher.data, fetcher.state, shopify, t]);

  const submit = (intent: "resend" | "retryFailed", ids: string[]) =>
    fetcher.submit({ intent, ids: ids.join(",") }, { method: "post" });
  const noFilter =
    !filter.query &&
    !filter.from &&
    !filter.to &&
    [filter.states, filter.confirmation, filter.shipping, filter.issues].every((l) => l.length === 0);

  return (
    <Page
      title={t("orders.title")}
      fullWidth
      secondaryActions={
        failedCount > 0
          ? [
              {
                content: t("orders.retryAllFailed", { count: failedCount }),
                onAction: () => submit("retryFailed", []),
                loading: fetcher.state !== "idle",
              },
            ]
          : []
      }
    >
      {page.rows.length === 0 && noFilter && firstPage ? (
        <Card>
          {connected ? (
            <EmptyState
              heading={t("orders.empty.title")}
              image={EMPTY_STATE_IMAGE}
              secondaryAction={{ content: t("empty.importPast"), url: "/app/backfill" }}
            >
              <p>{t("orders.empty.body")}</p>
            </EmptyState>
          ) : (
            <EmptyState
              heading={t("empty.connect.title")}
              image={EMPTY_STATE_IMAGE}
              action={{ content: t("empty.connect.action"), url: "/app/settings" }}
            >
              <p>{t("empty.connect.orders")}</p>
            </EmptyState>
          )}
        </Card>
      ) : (
        <Card padding="0">
          <OrdersTable
            page={page}
            filter={filter}
            onBulk={submit}
            busy={fetcher.state !== "idle"}
            contact={contact}
            phoneLayout={phoneLayout}
          />
        </Card>
      )}
    </Page>
  );
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
