/** Orders: every Shopify order the app received, with its lead, statuses and problems. */
import { useEffect, useState } from "react";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { Card, Page } from "@shopify/polaris";
import type { ordersPageData, ordersPageAction } from "../../pages/orders-page.server";
import { minutesSince } from "../../pages/minutes-since";
import { useT } from "../../i18n/react";
import { EmptyCard } from "../EmptyCard";
import { OrdersTable } from "./OrdersTable";
import { fixErrorText } from "./text";
import { BulkSendModal, bulkFactsOf, type BulkSendFacts } from "./BulkSendModal";

export function OrdersPage() {
  const { page, filter, failed, staleOrderDays, now, firstPage, connected, contact, phoneLayout } =
    useLoaderData<typeof ordersPageData>();
  const t = useT();
  const shopify = useAppBridge();
  const fetcher = useFetcher<typeof ordersPageAction>({ key: "orders-bulk" });
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
          oldestMinutes: minutesSince(failed.oldestWithinLimitAt, now),
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
        <EmptyCard
          page="orders"
          connected={connected}
          secondaryAction={{ content: t("empty.importPast"), url: "/app/backfill" }}
        />
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
