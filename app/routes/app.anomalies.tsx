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
} from "../models/anomaly-groups.server";
import { useT } from "../i18n/react";
import { AnomalyGroupCard } from "../components/orders/AnomalyGroupCard";
import { fixErrorText } from "../components/orders/text";

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const anomalies = await loadAnomalyGroups(prisma, session.shop);
  const options = await referenceOptions(prisma, session.shop, {
    products: anomalies.groups.some((g) => g.fix === "mapSku" || g.fix === "mapVariant"),
    cities: anomalies.groups.some((g) => g.fix === "aliasCity"),
  });
  return { ...anomalies, ...options, scanLimit: SCAN_LIMIT };
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
  } catch (error) {
    return { ok: false, intent, error: fixFailure(error) };
  }
  throw new Response("Unknown intent", { status: 400 });
});

export default function Anomalies() {
  const { groups, products, cities, truncated, scanLimit } = useLoaderData<typeof loader>();
  const t = useT();
  const shopify = useAppBridge();
  const fetcher = useFetcher<typeof action>({ key: "anomalies-fix" });
  const busy = fetcher.state !== "idle";
  const result = fetcher.state === "idle" ? fetcher.data : undefined;

  useEffect(() => {
    if (result?.ok) shopify.toast.show(t("anomalies.toast.fixed", { count: result.resent }));
  }, [result, shopify, t]);

  const submit = (fields: Record<string, string>) => fetcher.submit(fields, { method: "post" });
  // Only the group being fixed shows a spinner.
  const busyKey = busy ? String(fetcher.formData?.get("key") ?? "") : "";

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
            {groups.length === 0 ? (
              <Card>
                <EmptyState heading={t("anomalies.empty.title")} image="">
                  <p>{t("anomalies.empty.body")}</p>
                </EmptyState>
              </Card>
            ) : (
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
