/** Anomalies: the shop's blocked orders grouped by cause, each group fixed once for all its orders. */
import { useEffect } from "react";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { boundary } from "@shopify/shopify-app-remix/server";
import { Banner, BlockStack, Card, EmptyState, Layout, Page, Text } from "@shopify/polaris";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import prisma from "../db.server";
import {
  fixCityGroup,
  fixFailure,
  fixSkuGroup,
  loadAnomalyGroups,
  referenceOptions,
  resendGroup,
  SCAN_LIMIT,
  type FixFailureCode,
} from "../pages/anomalies.server";
import { useT } from "../i18n/react";
import { AnomalyGroupCard } from "../components/orders/AnomalyGroupCard";
import { CustomerHoldsCard } from "../components/orders/CustomerHoldsCard";
import { loadCustomerHolds } from "../customers/held-orders.server";
import { sendAnyway } from "../sync/order-actions.server";
import { fixErrorText } from "../components/orders/text";

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const [anomalies, customerHolds] = await Promise.all([loadAnomalyGroups(prisma, session.shop), loadCustomerHolds(prisma, session.shop)]);
  const options = await referenceOptions(prisma, session.shop, {
    products: anomalies.groups.some((g) => g.fix === "mapSku" || g.fix === "mapVariant"),
    cities: anomalies.groups.some((g) => g.fix === "aliasCity"),
  });
  return { ...anomalies, ...options, customerHolds, scanLimit: SCAN_LIMIT };
});

type ActionResult = { ok: true; intent: string; resent: number; skipped: number } | { ok: false; intent: string; error: FixFailureCode };

export const action = withErrorReference(async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  const { session } = await authenticate.admin(request);
  const form = await request.formData();
  const field = (name: string) => (typeof form.get(name) === "string" ? (form.get(name) as string) : "");
  const intent = field("intent");
  const key = field("key");
  const actor = { by: "merchant" };
  try {
    if (intent === "fixSku") return { ok: true, intent, ...(await fixSkuGroup(prisma, session.shop, { key, platformSku: field("platformSku") }, actor)) };
    if (intent === "fixCity") return { ok: true, intent, ...(await fixCityGroup(prisma, session.shop, { key, cityId: Number(field("cityId")) }, actor)) };
    if (intent === "resendGroup") return { ok: true, intent, ...(await resendGroup(prisma, session.shop, key, actor)) };
    if (intent === "sendAnyway") {
      await sendAnyway(prisma, session.shop, field("id"), actor);
      return { ok: true, intent, resent: 1, skipped: 0 };
    }
  } catch (error) {
    return { ok: false, intent, error: fixFailure(error) };
  }
  throw new Response("Unknown intent", { status: 400 });
});

export default function Anomalies() {
  const { groups, products, cities, truncated, scanLimit, customerHolds } = useLoaderData<typeof loader>();
  const t = useT();
  const shopify = useAppBridge();
  const fetcher = useFetcher<typeof action>({ key: "anomalies-fix" });
  const busy = fetcher.state !== "idle";
  const result = fetcher.state === "idle" ? fetcher.data : undefined;

  useEffect(() => {
    if (result?.ok) shopify.toast.show(result.intent === "sendAnyway" ? t("customers.anomalies.sent") : t("anomalies.toast.fixed", { count: result.resent }));
  }, [result, shopify, t]);

  const submit = (fields: Record<string, string>) => fetcher.submit(fields, { method: "post" });
  // Only the group being fixed shows a spinner.
  const busyKey = busy ? String(fetcher.formData?.get("key") ?? "") : "";
  const busyId = busy ? String(fetcher.formData?.get("id") ?? "") : "";

  return (
    <Page title={t("anomalies.title")}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {result && !result.ok ? (
              <Banner tone="critical">
                <p>{fixErrorText(t, result.error)}</p>
              </Banner>
            ) : null}
            {truncated ? <Banner tone="info">{t("anomalies.truncated", { count: scanLimit })}</Banner> : null}
            <CustomerHoldsCard holds={customerHolds} onSend={submit} busyId={busyId} />
            {groups.length === 0 && customerHolds.count === 0 ? (
              <Card>
                <EmptyState heading={t("anomalies.empty.title")} image="">
                  <p>{t("anomalies.empty.body")}</p>
                </EmptyState>
              </Card>
            ) : groups.length === 0 ? null : (
              <>
                <Text as="p" tone="subdued">
                  {t("anomalies.intro")}
                </Text>
                {groups.map((group) => (
                  <AnomalyGroupCard key={group.key} group={group} products={products} cities={cities} onFix={submit} busy={busyKey === group.key} />
                ))}
              </>
            )}
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

export const headers: HeadersFunction = (headersArgs) => boundary.headers(headersArgs);
