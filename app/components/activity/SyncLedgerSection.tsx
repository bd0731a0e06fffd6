/**
 * Activity's sync ledger: both windows side by side (orders in Shopify against the
 * app's, by outcome; what the reconciliation found; latencies), the promise term by
 * term, what each recent pass found with links to its orders, the stuck orders, and
 * "Check now".
 */
import { useEffect } from "react";
import { useFetcher } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { Badge, Banner, BlockStack, Button, Card, InlineStack, Link, List, Text } from "@shopify/polaris";
import { ScrollTable } from "../ScrollTable";
import type { MessageKey } from "../../i18n";
import { useFormat, useT } from "../../i18n/react";
import {
  accountedBadge,
  countText,
  ledgerTime,
  promiseSentence,
  promiseVerdict,
  stuckStateText,
  termText,
  withinText,
} from "../sync-ledger/text";
import type { LedgerOnPage } from "../../pages/sync-ledger-times";
import { RECONCILE_NOW_INTENT, type SyncLedgerActionResult } from "../../pages/activity-intents";

export function SyncLedgerSection({ ledger }: { ledger: LedgerOnPage }) {
  const t = useT();
  const format = useFormat();
  const fetcher = useFetcher<SyncLedgerActionResult>();
  const shopify = useAppBridge();
  useEffect(() => {
    if (fetcher.data?.intent === "reconcileNow" && fetcher.data.ok) shopify.toast.show(t("syncLedger.checkQueued"));
  }, [fetcher.data, shopify, t]);
  const { day, week } = ledger.windows;
  const n = (value: number) => format.integer(value);
  const within = (seconds: number | null) => withinText(format, t, seconds);
  const time = (at: string, options?: { year?: boolean }) => ledgerTime(format, ledger, at, options);
  const row = (key: MessageKey, a: string, b: string) => [t(key), a, b];
  const both = (key: MessageKey, pick: (w: typeof day) => number) => row(key, n(pick(day)), n(pick(week)));
  const badgeOf = (w: typeof day) => accountedBadge(t, w)?.text ?? t("syncLedger.noValue");
  const verdict = promiseVerdict(week.promise);
  const dayVerdict = promiseVerdict(day.promise);

  return (
    <div id="sync-ledger" data-sync-ledger="activity">
      <Card>
        <BlockStack gap="400">
          <InlineStack align="space-between" blockAlign="center" gap="200">
            <Text as="h2" variant="headingMd">
              {t("syncLedger.title")}
            </Text>
            <fetcher.Form method="post">
              <input type="hidden" name="intent" value={RECONCILE_NOW_INTENT} />
              <Button submit loading={fetcher.state !== "idle"} disabled={ledger.running}>
                {ledger.running ? t("syncLedger.checking") : t("syncLedger.checkNow")}
              </Button>
            </fetcher.Form>
          </InlineStack>
          <Text as="p" tone="subdued">
            {t("syncLedger.intro", { interval: within(ledger.intervalSeconds) })}
          </Text>
          <InlineStack gap="400">
            <Text as="p" variant="bodySm">
              {t("syncLedger.lastCheck", { time: ledger.lastPassAt ? time(ledger.lastPassAt) : t("syncLedger.never") })}
            </Text>
            {ledger.nextPassAt ? (
              <Text as="p" variant="bodySm">
                {t("syncLedger.nextCheck", { time: time(ledger.nextPassAt) })}
              </Text>
            ) : null}
          </InlineStack>

          {ledger.lastFailure ? (
            <div data-ledger-failure={ledger.lastFailure}>
              <Banner tone="warning" title={t("syncLedger.failure.title")}>
                <p>{t("syncLedger.failure.body", { reason: t(`syncLedger.failure.${ledger.lastFailure}`) })}</p>
              </Banner>
            </div>
          ) : null}

          {ledger.uncoveredFrom && ledger.coverageFrom ? (
            <Banner
              tone="warning"
              title={t("syncLedger.uncovered.title")}
              action={{ content: t("syncLedger.uncovered.action"), url: "/app/backfill" }}
            >
              <p>
                {t("syncLedger.uncovered.body", {
                  from: time(ledger.uncoveredFrom, { year: true }),
                  to: time(ledger.coverageFrom, { year: true }),
                })}
              </p>
            </Banner>
          ) : null}

          {!ledger.started ? (
            <Text as="p">{t("syncLedger.notStarted", { interval: within(ledger.intervalSeconds) })}</Text>
          ) : (
            <BlockStack gap="200">
              {ledger.countedAt ? (
                <Text as="p" variant="bodySm" tone="subdued">
                  {t("syncLedger.countedAt", { time: time(ledger.countedAt) })}
                </Text>
              ) : null}
              <ScrollTable
                label={t("syncLedger.title")}
                numeric
                headings={[t("syncLedger.measure"), t("syncLedger.lastDay"), t("syncLedger.lastWeek")]}
                rows={[
                  row("syncLedger.inShopify", countText(format, t, day.shopify), countText(format, t, week.shopify)),
                  both("syncLedger.accounted", (w) => w.app.total),
                  both("syncLedger.row.sent", (w) => w.app.sent),
                  both("syncLedger.row.held", (w) => w.app.held),
                  both("syncLedger.row.refused", (w) => w.app.refused),
                  both("syncLedger.row.skipped", (w) => w.app.skipped),
                  both("syncLedger.row.cancelled", (w) => w.app.cancelled),
                  both("syncLedger.row.pending", (w) => w.app.pending),
                  row("syncLedger.row.notSeen", badgeOf(day), badgeOf(week)),
                  both("syncLedger.row.recovered", (w) => w.recovered),
                  both("syncLedger.row.cancellations", (w) => w.cancelled),
                  both("syncLedger.row.updates", (w) => w.updated),
                  both("syncLedger.row.rewritten", (w) => w.rewritten),
                  row("syncLedger.row.leadP50", within(day.leadP50), within(week.leadP50)),
                  row("syncLedger.row.leadP95", within(day.leadP95), within(week.leadP95)),
                  row("syncLedger.row.statusP95", within(day.statusP95), within(week.statusP95)),
                  row("syncLedger.row.promise", t(dayVerdict.word), t(verdict.word)),
                ].map(([label, ...cells]) => ({ key: label, cells: [label, ...cells] }))}
              />
            </BlockStack>
          )}

          <BlockStack gap="200">
            <InlineStack gap="200" blockAlign="center">
              <Text as="h3" variant="headingSm">
                {t("syncLedger.row.promise")}
              </Text>
              <span data-promise-verdict={verdict.verdict}>
                <Badge tone={verdict.tone}>{t(verdict.key)}</Badge>
              </span>
            </InlineStack>
            <Text as="p">{promiseSentence(format, t, ledger.promise)}</Text>
            <List type="bullet">
              <List.Item>{termText(format, t, "leads", week.promise.leads)}</List.Item>
              <List.Item>{termText(format, t, "allLeads", week.promise.allLeads)}</List.Item>
              <List.Item>{termText(format, t, "statuses", week.promise.statuses)}</List.Item>
            </List>
            {verdict.tone === "critical" ? (
              <Text as="p" tone="subdued">
                {t("syncLedger.promise.shortHelp")}
              </Text>
            ) : null}
          </BlockStack>

          <BlockStack gap="200">
            <Text as="h3" variant="headingSm">
              {t("syncLedger.passes.title")}
            </Text>
            {ledger.passes.length === 0 ? (
              <Text as="p" tone="subdued">
                {t("syncLedger.passes.none")}
              </Text>
            ) : (
              <List type="bullet">
                {ledger.passes.map((pass) => (
                  <List.Item key={pass.at}>
                    <span data-ledger-pass={pass.at}>
                      {t("syncLedger.passes.line", {
                        time: time(pass.at),
                        recovered: pass.recovered,
                        cancelled: pass.cancelled,
                        updated: pass.updated,
                        rewritten: pass.rewritten,
                      })}{" "}
                      {pass.orders.map((order, i) => (
                        <span key={`${order.linkId}-${order.what}`}>
                          {i > 0 ? t("syncLedger.passes.separator") : ""}
                          <Link url={`/app/orders/${order.linkId}`}>{order.orderName}</Link>
                          {t("syncLedger.passes.order", { what: t(`syncLedger.what.${order.what}` as MessageKey) })}
                        </span>
                      ))}
                    </span>
                  </List.Item>
                ))}
              </List>
            )}
          </BlockStack>

          <BlockStack gap="200">
            <Text as="h3" variant="headingSm">
              {t("syncLedger.stuck.title")}
            </Text>
            {ledger.stuck.total === 0 ? (
              <Text as="p" tone="subdued">
                {t("syncLedger.stuck.none", { minutes: ledger.stuckMinutes })}
              </Text>
            ) : (
              <List type="bullet">
                {ledger.stuck.orders.map((order) => (
                  <List.Item key={order.id}>
                    <span data-stuck-order={order.orderName}>
                      <Link url={`/app/orders/${order.id}`}>{order.orderName}</Link>
                      {t("syncLedger.stuck.line", {
                        state: stuckStateText(t, order.state),
                        minutes: format.integer(order.minutes),
                      })}
                    </span>
                  </List.Item>
                ))}
                {ledger.stuck.total > ledger.stuck.orders.length ? (
                  <List.Item>
                    {t("syncLedger.stuck.more", {
                      count: format.integer(ledger.stuck.total - ledger.stuck.orders.length),
                    })}
                  </List.Item>
                ) : null}
              </List>
            )}
          </BlockStack>
        </BlockStack>
      </Card>
    </div>
  );
}
