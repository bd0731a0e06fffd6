/**
 * Home: what waits for the merchant now (the to-do inbox), set-up steps until the
 * app is set up, alerts, then the figures (each opening the orders it counts) and
 * the 14-day chart. Other features add their own cards between the inbox and the figures.
 */
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, Layout, Page, Text } from "@shopify/polaris";
import type { homePageData } from "../../pages/home-page.server";
import { useT } from "../../i18n/react";
import { DashboardAlerts } from "../DashboardAlerts";
import { DashboardFigures } from "../DashboardFigures";
import { LeadsChart } from "../LeadsChart";
import { OnboardingChecklist } from "../OnboardingChecklist";
import { EmptyCard } from "../EmptyCard";
import { CashOverview } from "../cash/CashOverview";
import { InboxCard } from "./InboxCard";
import { SyncLedgerAlert } from "./SyncLedgerAlert";
import { SyncLedgerCard } from "./SyncLedgerCard";

export function HomePage() {
  const { dashboard, inbox, connected, syncLedger } = useLoaderData<typeof homePageData>();
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
            <EmptyCard
              page="home"
              connected={connected}
              action={{ content: t("empty.importPast"), url: "/app/backfill" }}
            />
          )}
        </Layout.Section>
      </Layout>
    </Page>
  );
}
