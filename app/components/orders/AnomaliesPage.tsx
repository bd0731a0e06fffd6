/**
 * Anomalies: what waits for the merchant, grouped by cause (all causes, or the one
 * Home's to-do inbox opened), each with what is at stake and the fix that applies.
 */
import { useEffect, useState } from "react";
import { useLoaderData } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { Banner, BlockStack, InlineStack, Layout, Link, Page, Text } from "@shopify/polaris";
import type { anomaliesPageAction, anomaliesPageData } from "../../pages/anomalies-page.server";
import type { GroupOrder } from "../../pages/anomalies.server";
import type { Release } from "../../sync/release-held.server";
import { holdReasonViewText } from "../../customers/hold-reason";
import { useT } from "../../i18n/react";
import { ConfirmModal } from "../ConfirmModal";
import { EmptyCard } from "../EmptyCard";
import { PhoneInset } from "../PhoneInset";
import { usePageAction } from "../usePageAction";
import { AnomalyGroupCard } from "./AnomalyGroupCard";
import { CustomerHoldsCard } from "./CustomerHoldsCard";
import { MismatchCard } from "./MismatchCard";
import { BulkSendModal, type BulkSendFacts } from "./BulkSendModal";
import { ReleaseModal } from "./ReleaseModal";
import { ActionFailureBanner } from "./ActionFailureBanner";

type Confirm =
  | { kind: "cancelDuplicate"; order: GroupOrder }
  | { kind: "sendAnyway"; id: string; name: string; reason: string }
  | { kind: "sendGroup"; key: string; facts: BulkSendFacts }
  | null;

export function AnomaliesPage() {
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
  } = useLoaderData<typeof anomaliesPageData>();
  const t = useT();
  const shopify = useAppBridge();
  const { busy, result, submit, posting } = usePageAction<typeof anomaliesPageAction>("anomalies-fix");
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

  // Only the group (or order) being fixed shows a spinner.
  const busyKey = String(posting?.get("key") ?? "");
  const busyId = String(posting?.get("id") ?? "");
  const holds = customerHolds && customerHolds.count > 0 ? customerHolds : null;
  const costing = mismatches && mismatches.count > 0 ? mismatches : null;
  const nothing = groups.length === 0 && !holds && !costing;

  return (
    <Page title={t("anomalies.title")} subtitle={cause ? t(`anomalies.cause.${cause}`) : undefined}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {result && !result.ok ? <ActionFailureBanner error={result.error} /> : null}
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
              <EmptyCard
                page="anomalies"
                connected={connected}
                action={{ content: t("nav.orders"), url: "/app/orders" }}
              />
            ) : groups.length === 0 ? null : (
              <>
                <PhoneInset>
                  <Text as="p" tone="subdued">
                    {t("anomalies.intro")}
                  </Text>
                </PhoneInset>
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
                          // What goes: every order of the stale group, else those within the limit.
                          oldestMinutes:
                            group.fix === "sendStale"
                              ? group.oldestAt
                                ? group.oldestMinutes
                                : null
                              : group.oldestWithinLimitMinutes,
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
