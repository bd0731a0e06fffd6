/**
 * Home: what waits for the merchant now (the to-do inbox), set-up steps until the
 * app is set up, alerts, then the figures (each opening the orders it counts) and
 * the 14-day chart. Other features add their own cards between the inbox and the figures.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, EmptyState, Layout, Page, Text } from "@shopify/polaris";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import prisma from "../db.server";
import { loadDashboard } from "../pages/home.server";
import { loadInbox } from "../pages/home-inbox.server";
import { loadShopFacts } from "../pages/shop-facts.server";
import { useT } from "../i18n/react";
import { DashboardAlerts } from "../components/DashboardAlerts";
import { DashboardFigures } from "../components/DashboardFigures";
import { LeadsChart } from "../components/LeadsChart";
import { OnboardingChecklist } from "../components/OnboardingChecklist";
import { CashOverview } from "../components/cash/CashOverview";
import { InboxCard } from "../components/home/InboxCard";
import { EMPTY_STATE_IMAGE } from "../components/EmptyStateImage";
import { ensureShop } from "../models/shops.server";
import { loadSyncLedger } from "../pages/sync-ledger.server";
import { ledgerOnPage } from "../components/sync-ledger/times";
import { DEFAULT_TIME_ZONE } from "../analytics/days";
import { SyncLedgerAlert } from "../components/home/SyncLedgerAlert";
import { SyncLedgerCard } from "../components/home/SyncLedgerCard";

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  await ensureShop(prisma, session.shop);
  const [dashboard, inbox, facts, syncLedger] = await Promise.all([
    loadDashboard(prisma, session.shop),
    loadInbox(prisma, session.shop),
    loadShopFacts(prisma, session.shop),
    loadSyncLedger(prisma, session.shop),
  ]);
  // The ledger's instants on the shop's wall clock, written by the page in the reader's format.
  return {
    shop: session.shop,
    dashboard,
    inbox,
    connected: facts.connected,
    syncLedger: ledgerOnPage(syncLedger, DEFAULT_TIME_ZONE),
  };
});

export default function Home() {
  const { dashboard, inbox, connected, syncLedger } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <Page title={t("app.title")}>
      <Layout>
        {syncLedger.stuck.total > 0 ? (
          <Layout.Section>
            <SyncLedgerAlert ledger={syncLedger} />
          </Layout.Section>
        ) : null}
        {dashboard.alerts.length > 0 ? (
          <Layout.Section>
            <DashboardAlerts alerts={dashboard.alerts} />
          </Layout.Section>
        ) : null}
        {dashboard.onboarding.complete ? null : (
          <Layout.Section>
            <OnboardingChecklist steps={dashboard.onboarding.steps} />
          </Layout.Section>
        )}
        {connected ? (
          <Layout.Section>
            <InboxCard inbox={inbox} />
          </Layout.Section>
        ) : null}
        <CashOverview cash={dashboard.cash} />
        <Layout.Section>
          {dashboard.hasLeads ? (
            <BlockStack gap="400">
              <DashboardFigures figures={dashboard.figures} links={dashboard.figureLinks} periods={dashboard.periods} />
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    {t("home.chart.title")}
                  </Text>
                  <LeadsChart days={dashboard.chart} />
                </BlockStack>
              </Card>
              <SyncLedgerCard ledger={syncLedger} />
            </BlockStack>
          ) : (
            <Card>
              {connected ? (
                <EmptyState
                  heading={t("home.empty.title")}
                  image={EMPTY_STATE_IMAGE}
                  action={{ content: t("empty.importPast"), url: "/app/backfill" }}
                >
                  <p>{t("home.empty.body")}</p>
                </EmptyState>
              ) : (
                <EmptyState
                  heading={t("empty.connect.title")}
                  image={EMPTY_STATE_IMAGE}
                  action={{ content: t("empty.connect.action"), url: "/app/settings" }}
                >
                  <p>{t("empty.connect.home")}</p>
                </EmptyState>
              )}
            </Card>
          )}
        </Layout.Section>
      </Layout>
    </Page>
  );
}
