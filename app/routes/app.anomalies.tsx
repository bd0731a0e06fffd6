/**
 * Anomalies: what waits for the merchant, grouped by cause (all causes, or the one
 * Home's to-do inbox opened), each with what is at stake and the fix that applies.
 */
import { useEffect, useState } from "react";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { Banner, BlockStack, Card, EmptyState, InlineStack, Layout, Link, Page, Text } from "@shopify/polaris";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import prisma from "../db.server";
import {
  checkCatalogueAgain,
  fixCityGroup,
  fixFailure,
  fixSkuGroup,
  loadAnomalyGroups,
  referenceOptions,
  resendGroup,
  SCAN_LIMIT,
  type FixFailureCode,
  type GroupOrder,
} from "../pages/anomalies.server";
import { correctAndResend } from "../pages/order-detail.server";
import { loadShopFacts } from "../pages/shop-facts.server";
import { CAUSES, type Cause } from "../models/attention";
import { useT } from "../i18n/react";
import { AnomalyGroupCard } from "../components/orders/AnomalyGroupCard";
import { CustomerHoldsCard } from "../components/orders/CustomerHoldsCard";
import { MismatchCard } from "../components/orders/MismatchCard";
import { loadMismatches } from "../pages/mismatches.server";
import { ConfirmModal } from "../components/ConfirmModal";
import { BulkSendModal, type BulkSendFacts } from "../components/orders/BulkSendModal";
import { ReleaseModal } from "../components/orders/ReleaseModal";
import { confirmedRelease, sendReleased, type Release } from "../sync/release-held.server";
import { EMPTY_STATE_IMAGE } from "../components/EmptyStateImage";
import { loadCustomerHolds } from "../customers/held-orders.server";
import { holdReasonViewText } from "../customers/hold-reason";
import { cancelDuplicateInShopify, keepDuplicate, sendAnyway } from "../sync/order-actions.server";
import { ShopifyAdminError } from "../shopify/errors";
import { fixErrorText } from "../components/orders/text";

const isCause = (value: string | null): value is Cause =>
  value !== null && (CAUSES as readonly string[]).includes(value);

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const param = new URL(request.url).searchParams.get("cause");
  const cause = isCause(param) ? param : undefined;
  const now = Date.now();
  const [anomalies, customerHolds, facts, mismatches] = await Promise.all([
    loadAnomalyGroups(prisma, session.shop, { cause }),
    !cause || cause === "customer" ? loadCustomerHolds(prisma, session.shop) : Promise.resolve(null),
    loadShopFacts(prisma, session.shop),
    !cause || cause === "mismatch" ? loadMismatches(prisma, session.shop) : Promise.resolve(null),
  ]);
  const options = await referenceOptions(prisma, session.shop, {
    products: anomalies.groups.some((g) => g.fix === "mapSku" || g.fix === "mapVariant"),
    cities: anomalies.groups.some((g) => g.fix === "aliasCity"),
  });
  // Ages are computed here: the page shows them as they are (no clock of the browser's).
  const groups = anomalies.groups.map((g) => ({
    ...g,
    oldestMinutes: g.oldestAt ? Math.max(0, Math.floor((now - Date.parse(g.oldestAt)) / 60_000)) : 0,
  }));
  return {
    ...anomalies,
    groups,
    ...options,
    customerHolds,
    mismatches,
    scanLimit: SCAN_LIMIT,
    cause: cause ?? null,
    connected: facts.connected,
    contact: facts.contact,
  };
});

type ActionResult =
  | { ok: true; intent: string; resent: number; skipped: number; release?: Release; sent?: number }
  | { ok: false; intent: string; error: FixFailureCode | "shopify_failed" };

export const action = withErrorReference(async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  const { session, admin } = await authenticate.admin(request);
  const form = await request.formData();
  const field = (name: string) => (typeof form.get(name) === "string" ? (form.get(name) as string) : "");
  const intent = field("intent");
  const key = field("key");
  const id = field("id");
  const actor = { by: "merchant" };
  try {
    if (intent === "fixSku")
      return {
        ok: true,
        intent,
        ...(await fixSkuGroup(prisma, session.shop, { key, platformSku: field("platformSku") }, actor)),
      };
    if (intent === "fixCity")
      return {
        ok: true,
        intent,
        ...(await fixCityGroup(prisma, session.shop, { key, cityId: Number(field("cityId")) }, actor)),
      };
    if (intent === "resendGroup") {
      // Sent only as confirmed: the count the confirmation stated, old orders only when it said they are old.
      const count = Number(field("count"));
      const sendStale = field("sendStale") === "confirmed";
      return {
        ok: true,
        intent,
        ...(await resendGroup(
          prisma,
          session.shop,
          key,
          { ...actor, sendStale },
          Number.isInteger(count) && count > 0 ? count : undefined,
        )),
      };
    }
    if (intent === "sendReleased") {
      // The orders a fix freed, as their confirmation stated them (ReleaseModal).
      const { ids, count } = confirmedRelease(form);
      const { sent, skipped } = await sendReleased(prisma, session.shop, ids, actor, count);
      return { ok: true, intent, resent: sent, skipped, sent };
    }
    if (intent === "checkCatalogue")
      return { ok: true, intent, ...(await checkCatalogueAgain(prisma, session.shop, key, actor)) };
    if (intent === "sendAnyway") {
      await sendAnyway(prisma, session.shop, id, actor);
      return { ok: true, intent, resent: 1, skipped: 0 };
    }
    if (intent === "correctPhone") {
      await correctAndResend(prisma, session.shop, id, { phone: field("phone") }, actor);
      return { ok: true, intent, resent: 1, skipped: 0 };
    }
    if (intent === "keepDuplicate") {
      await keepDuplicate(prisma, session.shop, id, actor);
      return { ok: true, intent, resent: 0, skipped: 0 };
    }
    if (intent === "cancelDuplicate") {
      await cancelDuplicateInShopify(prisma, admin, session.shop, id, actor);
      return { ok: true, intent, resent: 0, skipped: 0 };
    }
  } catch (error) {
    if (error instanceof ShopifyAdminError) return { ok: false, intent, error: "shopify_failed" };
    return { ok: false, intent, error: fixFailure(error) };
  }
  throw new Response("Unknown intent", { status: 400 });
});

type Confirm =
  | { kind: "cancelDuplicate"; order: GroupOrder }
  | { kind: "sendAnyway"; id: string; name: string; reason: string }
  | { kind: "sendGroup"; key: string; facts: BulkSendFacts }
  | null;

export default function Anomalies() {
  const {
    groups,
    products,
    cities,
    truncated,
    scanLimit,
    customerHolds,
    mismatches,
    cause,
    connected,
    contact,
    staleOrderDays,
  } = useLoaderData<typeof loader>();
  const t = useT();
  const shopify = useAppBridge();
  const fetcher = useFetcher<typeof action>({ key: "anomalies-fix" });
  const busy = fetcher.state !== "idle";
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  const [confirm, setConfirm] = useState<Confirm>(null);
  // The orders a fix freed, more than one: they go on their confirmation.
  const [release, setRelease] = useState<Release | null>(null);

  useEffect(() => {
    if (!result?.ok) return;
    setConfirm(null);
    if (result.release && result.release.orders.length > 0) {
      setRelease(result.release);
      return;
    }
    const toasts: Record<string, string> = {
      sendAnyway: t("customers.anomalies.sent"),
      keepDuplicate: t("order.duplicate.kept"),
      cancelDuplicate: t("order.duplicate.cancelled"),
      correctPhone: t("order.resent"),
    };
    const message =
      toasts[result.intent] ??
      (result.intent === "checkCatalogue" && result.resent === 0
        ? t("suggestions.checkAgain.stillMissing")
        : result.skipped > 0
          ? t("anomalies.toast.fixedSome", { count: result.resent, skipped: result.skipped })
          : t("anomalies.toast.fixed", { count: result.resent }));
    shopify.toast.show(message);
  }, [result, shopify, t]);

  const submit = (fields: Record<string, string>) => fetcher.submit(fields, { method: "post" });
  // Only the group (or order) being fixed shows a spinner.
  const busyKey = busy ? String(fetcher.formData?.get("key") ?? "") : "";
  const busyId = busy ? String(fetcher.formData?.get("id") ?? "") : "";
  const holds = customerHolds && customerHolds.count > 0 ? customerHolds : null;
  const costing = mismatches && mismatches.count > 0 ? mismatches : null;
  const nothing = groups.length === 0 && !holds && !costing;

  return (
    <Page title={t("anomalies.title")} subtitle={cause ? t(`anomalies.cause.${cause}`) : undefined}>
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
            {cause ? (
              <InlineStack gap="200">
                <Link url="/app/anomalies">{t("anomalies.showAll")}</Link>
              </InlineStack>
            ) : null}
            {truncated ? <Banner tone="info">{t("anomalies.truncated", { count: scanLimit })}</Banner> : null}
            {costing ? <MismatchCard mismatches={costing} /> : null}
            {holds ? (
              <CustomerHoldsCard
                holds={holds}
                contact={contact}
                onSend={(fields) => {
                  const order = holds.orders.find((o) => o.id === fields.id);
                  if (order)
                    setConfirm({
                      kind: "sendAnyway",
                      id: order.id,
                      name: order.orderName,
                      reason: holdReasonViewText(t, order.reason),
                    });
                }}
                busyId={busyId}
              />
            ) : null}
            {nothing ? (
              <Card>
                {connected ? (
                  <EmptyState
                    heading={t("anomalies.empty.title")}
                    image={EMPTY_STATE_IMAGE}
                    action={{ content: t("nav.orders"), url: "/app/orders" }}
                  >
                    <p>{t("anomalies.empty.body")}</p>
                  </EmptyState>
                ) : (
                  <EmptyState
                    heading={t("empty.connect.title")}
                    image={EMPTY_STATE_IMAGE}
                    action={{ content: t("empty.connect.action"), url: "/app/settings" }}
                  >
                    <p>{t("empty.connect.anomalies")}</p>
                  </EmptyState>
                )}
              </Card>
            ) : groups.length === 0 ? null : (
              <>
                <Text as="p" tone="subdued">
                  {t("anomalies.intro")}
                </Text>
                {groups.map((group) => (
                  <AnomalyGroupCard
                    key={group.key}
                    group={group}
                    products={products}
                    cities={cities}
                    onFix={submit}
                    busy={busyKey === group.key}
                    busyId={busyId}
                    onCancelDuplicate={(order) => setConfirm({ kind: "cancelDuplicate", order })}
                    onSendGroup={() =>
                      setConfirm({
                        kind: "sendGroup",
                        key: group.key,
                        facts: {
                          count: group.count,
                          amountCents: group.amountCents,
                          oldestMinutes: group.oldestAt ? group.oldestMinutes : null,
                          older: group.olderThanLimit,
                          limitDays: staleOrderDays,
                          stale: group.fix === "sendStale",
                        },
                      })
                    }
                    staleOrderDays={staleOrderDays}
                  />
                ))}
              </>
            )}
          </BlockStack>
        </Layout.Section>
      </Layout>
      <ConfirmModal
        id="confirm-cancel-duplicate"
        open={confirm?.kind === "cancelDuplicate"}
        title={t("order.cancelDuplicate.title", {
          name: confirm?.kind === "cancelDuplicate" ? confirm.order.orderName : "",
        })}
        body={[t("order.cancelDuplicate.body"), t("anomalies.cancelDuplicate.lead")]}
        confirmLabel={t("order.cancelDuplicate.confirm")}
        destructive
        busy={busy}
        onConfirm={() =>
          confirm?.kind === "cancelDuplicate" && submit({ intent: "cancelDuplicate", id: confirm.order.id })
        }
        onClose={() => setConfirm(null)}
      />
      <BulkSendModal
        id="confirm-send-group"
        open={confirm?.kind === "sendGroup"}
        facts={confirm?.kind === "sendGroup" ? confirm.facts : null}
        busy={busy}
        onConfirm={() =>
          confirm?.kind === "sendGroup" &&
          submit({
            intent: "resendGroup",
            key: confirm.key,
            count: String(confirm.facts.count),
            ...(confirm.facts.stale ? { sendStale: "confirmed" } : {}),
          })
        }
        onClose={() => setConfirm(null)}
      />
      <ReleaseModal release={release} onClose={() => setRelease(null)} />
      <ConfirmModal
        id="confirm-send-anyway"
        open={confirm?.kind === "sendAnyway"}
        title={t("anomalies.sendAnyway.title", { name: confirm?.kind === "sendAnyway" ? confirm.name : "" })}
        body={[confirm?.kind === "sendAnyway" ? confirm.reason : "", t("order.sendAnyway.body")].filter(Boolean)}
        confirmLabel={t("customers.held.sendAnyway")}
        busy={busy}
        onConfirm={() => confirm?.kind === "sendAnyway" && submit({ intent: "sendAnyway", id: confirm.id })}
        onClose={() => setConfirm(null)}
      />
    </Page>
  );
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
