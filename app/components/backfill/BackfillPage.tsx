/**
 * Backfill: a preview (dry run) counts the orders of a date range (would be sent, would
 * wait for the merchant's word for their age, held, not COD, known already) with their
 * money and age; only then can they be imported, after one confirmation that states
 * those figures. Imported orders keep the day they were placed. The progress lives in
 * the job row, so the page polls it every 2 s while the job is active and survives a reload.
 */
import { useEffect, useState } from "react";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import {
  Banner,
  BlockStack,
  Button,
  Card,
  FormLayout,
  InlineGrid,
  InlineStack,
  Layout,
  Page,
  ProgressBar,
  Text,
  TextField,
} from "@shopify/polaris";
import type { backfillPageAction, backfillPageData } from "../../pages/backfill-page.server";
import type { BackfillView } from "../../sync/backfill/backfill.server";
import { CENTS_OF, type BackfillCounts } from "../../sync/backfill/progress";
import { parseShopifyFailureKind } from "../../shopify/failure";
import type { Formatter, MessageKey } from "../../i18n";
import { useFormat, useT } from "../../i18n/react";
import { ConfirmModal } from "../ConfirmModal";
import { ShopifyErrorBanner } from "../ShopifyErrorBanner";
import { ageText } from "../home/InboxCard";

const POLL_MS = 2_000;

const COUNTS: (keyof BackfillCounts)[] = [
  "scanned",
  "wouldSend",
  "wouldWait",
  "wouldHold",
  "notCod",
  "skipped",
  "alreadySent",
  "alreadyInApp",
  "created",
];

/** The Shopify failure that stopped the last attempt, while the job waits for its retry (or for the merchant). */
function lastShopifyFailure(backfill: BackfillView) {
  const kind = parseShopifyFailureKind(backfill.payload.shopifyFailure);
  return kind && (backfill.state === "failed" || backfill.state === "dead") ? { kind, retryAfterSeconds: null } : null;
}

function statusLine(
  t: ReturnType<typeof useT>,
  format: Formatter,
  backfill: BackfillView,
  local: { finishedLocal: string | null; throttledLocal: string | null },
): string {
  const { payload } = backfill;
  if (payload.finishedAt)
    return t("backfill.status.done", { time: local.finishedLocal ? format.dateTime(local.finishedLocal) : "" });
  // The banner says what failed, in the merchant's language.
  if (lastShopifyFailure(backfill)) return t("backfill.status.running", { pages: payload.pages });
  if (backfill.state === "dead") return t("backfill.status.dead");
  // Set by a throttled page and cleared by the next page read: the job is waiting for Shopify.
  if (payload.throttledUntil && backfill.state === "pending") {
    return t("backfill.status.throttled", {
      time: local.throttledLocal ? format.time(local.throttledLocal, { seconds: true }) : "",
    });
  }
  if (backfill.state === "failed") return t("backfill.status.failed");
  if (backfill.state === "running" || payload.pages > 0) return t("backfill.status.running", { pages: payload.pages });
  return t("backfill.status.pending");
}

export function BackfillPage() {
  const data = useLoaderData<typeof backfillPageData>();
  const t = useT();
  const format = useFormat();
  const shopify = useAppBridge();
  const startFetcher = useFetcher<typeof backfillPageAction>();
  const poll = useFetcher<typeof backfillPageData>();
  const latest = poll.data && poll.data.readAt > data.readAt ? poll.data : data;
  const backfill = latest.backfill;
  const active = backfill?.active ?? false;

  const [from, setFrom] = useState(backfill?.payload.from ?? data.defaultFrom);
  const [to, setTo] = useState(backfill?.payload.to ?? data.today);
  const started = startFetcher.data;

  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (poll.state === "idle") poll.load("/app/backfill");
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [active, poll]);

  useEffect(() => {
    if (started?.intent === "start" && started.ok) {
      shopify.toast.show(t(started.backfill.payload.dryRun ? "backfill.started.dry" : "backfill.started.run"));
    }
    if (started?.intent === "resume" && started.ok) shopify.toast.show(t("backfill.resumed"));
  }, [started, shopify, t]);

  const start = (dryRun: boolean) =>
    startFetcher.submit({ intent: "start", from, to, dryRun: String(dryRun) }, { method: "post" });
  const error = started?.intent === "start" && !started.ok ? started.error : null;
  const busy = startFetcher.state !== "idle";
  const finishedDry = backfill && backfill.payload.dryRun && backfill.payload.finishedAt;
  const [confirming, setConfirming] = useState(false);
  useEffect(() => {
    if (started?.intent === "start") setConfirming(false);
  }, [started]);

  return (
    <Page title={t("backfill.title")} backAction={{ content: t("nav.settings"), url: "/app/settings" }}>
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="400">
              <Text as="p">{t("backfill.intro")}</Text>
              {error ? (
                <Banner tone="critical">
                  <p>{t(`backfill.error.${error}`)}</p>
                </Banner>
              ) : null}
              <FormLayout>
                <FormLayout.Group>
                  {(
                    [
                      ["from", from, setFrom],
                      ["to", to, setTo],
                    ] as const
                  ).map(([name, value, onChange]) => (
                    <TextField
                      key={name}
                      label={t(`backfill.${name}`)}
                      type="date"
                      value={value}
                      onChange={onChange}
                      max={data.today}
                      autoComplete="off"
                    />
                  ))}
                </FormLayout.Group>
                <Text as="p" variant="bodySm" tone="subdued">
                  {t("backfill.rangeHelp")}
                </Text>
              </FormLayout>
              <InlineStack align="end" gap="200">
                <Button
                  variant="primary"
                  onClick={() => start(true)}
                  disabled={active}
                  loading={busy && startFetcher.formData?.get("dryRun") === "true"}
                >
                  {t("backfill.dryRun")}
                </Button>
              </InlineStack>
              <Text as="p" variant="bodySm" tone="subdued">
                {t("backfill.previewFirst")}
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          {backfill ? (
            <BackfillStatus
              backfill={backfill}
              local={latest}
              onResume={() => startFetcher.submit({ intent: "resume" }, { method: "post" })}
              resuming={busy && startFetcher.formData?.get("intent") === "resume"}
              staleOrderDays={data.staleOrderDays}
              onRunRange={finishedDry ? () => setConfirming(true) : undefined}
            />
          ) : (
            <Card>
              <Text as="p" tone="subdued">
                {t("backfill.none")}
              </Text>
            </Card>
          )}
        </Layout.Section>
      </Layout>
      {backfill && finishedDry ? (
        <ConfirmModal
          id="confirm-import"
          open={confirming}
          title={t("backfill.confirm.title", { count: toImport(backfill.payload.counts) })}
          body={importConfirmation(t, format, backfill.payload, data.staleOrderDays, Date.parse(latest.readAt))}
          confirmLabel={t("backfill.confirm.action", { count: toImport(backfill.payload.counts) })}
          busy={busy}
          onConfirm={() =>
            startFetcher.submit(
              { intent: "start", from: backfill.payload.from, to: backfill.payload.to, dryRun: "false" },
              { method: "post" },
            )
          }
          onClose={() => setConfirming(false)}
        />
      ) : null}
    </Page>
  );
}

/** Orders a run adds: those the app does not know yet. */
const toImport = (counts: BackfillCounts) => counts.scanned - counts.alreadySent - counts.alreadyInApp;

/**
 * What the import will do, from its preview: how many orders come in, which go to the
 * platform now (how many, how much), which wait for the merchant's word because of their
 * age, which stay held or are not sent, how old they are, and that they keep their date.
 */
function importConfirmation(
  t: ReturnType<typeof useT>,
  format: Formatter,
  payload: BackfillView["payload"],
  staleOrderDays: number,
  now: number,
): string[] {
  const c = payload.counts;
  const body = [
    t("backfill.confirm.summary", {
      count: toImport(c),
      orders: format.integer(toImport(c)),
      from: format.date(payload.from),
      to: format.date(payload.to),
    }),
    t("backfill.confirm.send", {
      count: c.wouldSend,
      orders: format.integer(c.wouldSend),
      amount: format.money(c.wouldSendCents),
    }),
  ];
  if (c.wouldWait > 0)
    body.push(
      t("bulk.olderWait", {
        count: c.wouldWait,
        orders: format.integer(c.wouldWait),
        amount: format.money(c.wouldWaitCents),
        days: staleOrderDays,
      }),
    );
  if (c.wouldHold > 0)
    body.push(
      t("backfill.confirm.hold", {
        count: c.wouldHold,
        orders: format.integer(c.wouldHold),
        amount: format.money(c.wouldHoldCents),
      }),
    );
  if (c.notCod + c.skipped > 0)
    body.push(
      t("backfill.confirm.notSent", { count: c.notCod + c.skipped, orders: format.integer(c.notCod + c.skipped) }),
    );
  const oldest = payload.oldestOrderAt ? Date.parse(payload.oldestOrderAt) : NaN;
  body.push(
    Number.isFinite(oldest)
      ? t("backfill.confirm.dates", { age: ageText(format, t, Math.max(0, Math.floor((now - oldest) / 60_000))) })
      : t("backfill.confirm.datesOnly"),
  );
  return body;
}

function BackfillStatus({
  backfill,
  local,
  onResume,
  resuming,
  onRunRange,
  staleOrderDays,
}: {
  backfill: BackfillView;
  local: { finishedLocal: string | null; throttledLocal: string | null };
  onResume(): void;
  resuming: boolean;
  onRunRange?: () => void;
  staleOrderDays: number;
}) {
  const t = useT();
  const format = useFormat();
  const { payload } = backfill;
  const failure = lastShopifyFailure(backfill);
  const percent = Math.round(backfill.progress * 100);
  const counts = COUNTS.filter((key) => key !== "created" || !payload.dryRun);
  return (
    <Card>
      <BlockStack gap="400">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {t(payload.dryRun ? "backfill.status.titleDry" : "backfill.status.titleRun", {
              from: format.date(payload.from),
              to: format.date(payload.to),
            })}
          </Text>
          <Text as="span" tone="subdued">
            {t("backfill.progress", { percent })}
          </Text>
        </InlineStack>
        <div data-progress={percent}>
          <ProgressBar
            progress={percent}
            tone={backfill.state === "dead" ? "critical" : payload.finishedAt ? "success" : "highlight"}
            animated={backfill.active}
          />
        </div>
        {failure ? (
          <ShopifyErrorBanner failure={failure} work="backfillOrders" onRetry={onResume} retrying={resuming} />
        ) : null}
        <Text as="p" tone={backfill.state === "dead" && !failure ? "critical" : undefined}>
          {statusLine(t, format, backfill, local)}
        </Text>
        {(backfill.state === "dead" || backfill.state === "failed") && !failure && backfill.lastError ? (
          <Text as="p" variant="bodySm" tone="subdued">
            {t("backfill.status.errorDetail")}{" "}
            <span lang="en" translate="no">
              {backfill.lastError}
            </span>
          </Text>
        ) : null}
        <InlineGrid columns={{ xs: 2, md: 4 }} gap="300">
          {counts.map((key) => {
            const cents = CENTS_OF[key as keyof typeof CENTS_OF];
            return (
              <BlockStack key={key} gap="050">
                <Text as="span" variant="bodySm" tone="subdued">
                  {t(`backfill.count.${key}` as MessageKey, { days: staleOrderDays })}
                </Text>
                <Text as="span" variant="headingLg">
                  <span data-count={key}>{format.integer(payload.counts[key])}</span>
                </Text>
                {cents && payload.counts[key] > 0 ? (
                  <Text as="span" variant="bodySm" tone="subdued">
                    <span data-count-amount={key}>{format.money(payload.counts[cents])}</span>
                  </Text>
                ) : null}
              </BlockStack>
            );
          })}
        </InlineGrid>
        {payload.finishedAt ? (
          <Text as="p" tone="subdued">
            {payload.dryRun ? t("backfill.doneDry") : t("backfill.doneRun", { count: payload.counts.created })}
          </Text>
        ) : null}
        <InlineStack align="end" gap="200">
          {backfill.state === "dead" && !failure ? <Button onClick={onResume}>{t("backfill.resume")}</Button> : null}
          {onRunRange ? (
            <Button variant="primary" onClick={onRunRange}>
              {t("backfill.runThisRange")}
            </Button>
          ) : null}
        </InlineStack>
      </BlockStack>
    </Card>
  );
}
