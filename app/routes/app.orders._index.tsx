/** Orders: every Shopify order the app received, with its lead, statuses and problems. */
import { useEffect, useState } from "react";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { Card, EmptyState, Page } from "@shopify/polaris";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import prisma from "../db.server";
import { DEFAULT_SORT, failedOrders, parseOrdersSearch, queryOrders } from "../pages/orders.server";
import { loadShopFacts } from "../pages/shop-facts.server";
import { isPhoneUserAgent } from "../http/user-agent";
import { EMPTY_STATE_IMAGE } from "../components/EmptyStateImage";
import { fixFailure, resendOrders, retryFailedOrders, type FixFailureCode } from "../pages/anomalies.server";
import { DEFAULT_TIME_ZONE } from "../analytics/days";
import { useT } from "../i18n/react";
import { OrdersTable } from "../components/orders/OrdersTable";
import { fixErrorText } from "../components/orders/text";
import { BulkSendModal, bulkFactsOf, type BulkSendFacts } from "../components/orders/BulkSendModal";

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const search = parseOrdersSearch(new URL(request.url).searchParams);
  const facts = await loadShopFacts(prisma, session.shop);
  const now = Date.now();
  const [page, failed] = await Promise.all([
    queryOrders(prisma, session.shop, search, { timeZone: DEFAULT_TIME_ZONE }),
    failedOrders(prisma, session.shop, new Date(now - facts.staleOrderDays * DAY_MS)),
  ]);
  const { after, before, limit: _limit, sort = DEFAULT_SORT, ...filter } = search;
  return {
    page,
    filter: { ...filter, sort },
    failed,
    staleOrderDays: facts.staleOrderDays,
    // Ages are computed against the server's clock: the page shows them as they are.
    now,
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

const DAY_MS = 86_400_000;

export default function Orders() {
  const { page, filter, failed, staleOrderDays, now, firstPage, connected, contact, phoneLayout } =
    useLoaderData<typeof loader>();
  const t = useT();
  const shopify = useAppBridge();
  const fetcher = useFetcher<typeof action>({ key: "orders-bulk" });
  // A bulk send asks first: how many, how old, how much.
  const [confirm, setConfirm] = useState<{
    intent: "resend" | "retryFailed";
    ids: string[];
    facts: BulkSendFacts;
  } | null>(null);

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
  const ask = (intent: "resend" | "retryFailed", ids: string[]) => {
    if (intent === "retryFailed" && ids.length === 0) {
      setConfirm({
        intent,
        ids,
        facts: {
          count: failed.count,
          amountCents: failed.amountCents,
          oldestMinutes: failed.oldestAt ? Math.max(0, Math.floor((now - Date.parse(failed.oldestAt)) / 60_000)) : null,
          older: failed.older,
          limitDays: staleOrderDays,
        },
      });
      return;
    }
    const rows = page.rows.filter((r) => ids.includes(r.id));
    setConfirm({
      intent,
      ids,
      facts: bulkFactsOf(
        rows.map((r) => ({ placedAt: r.createdAt, amountCents: r.amountCents })),
        now,
        staleOrderDays,
      ),
    });
  };
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data) setConfirm(null);
  }, [fetcher.state, fetcher.data]);
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
        failed.count > 0
          ? [
              {
                content: t("orders.retryAllFailed", { count: failed.count }),
                onAction: () => ask("retryFailed", []),
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
            onBulk={ask}
            busy={fetcher.state !== "idle"}
            contact={contact}
            phoneLayout={phoneLayout}
          />
        </Card>
      )}
      <BulkSendModal
        id="confirm-orders-bulk"
        open={confirm !== null}
        facts={confirm?.facts ?? null}
        busy={fetcher.state !== "idle"}
        onConfirm={() => confirm && submit(confirm.intent, confirm.ids)}
        onClose={() => setConfirm(null)}
      />
    </Page>
  );
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
