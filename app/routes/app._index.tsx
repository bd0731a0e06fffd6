/** Home: onboarding until the app is set up, then figures, the 14-day chart and alerts. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Card, EmptyState, Layout, Page, Text } from "@shopify/polaris";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import prisma from "../db.server";
import { loadDashboard } from "../pages/home.server";
import { useT } from "../i18n/react";
import { DashboardAlerts } from "../components/DashboardAlerts";
import { DashboardFigures } from "../components/DashboardFigures";
import { LeadsChart } from "../components/LeadsChart";
import { OnboardingChecklist } from "../components/OnboardingChecklist";
import { ensureShop } from "../models/shops.server";
import { loadSyncLedger } from "../pages/sync-ledger.server";
import { SyncLedgerAlert } from "../components/home/SyncLedgerAlert";
import { SyncLedgerCard } from "../components/home/SyncLedgerCard";

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  await ensureShop(prisma, session.shop);
  const [dashboard, syncLedger] = await Promise.all([loadDashboard(prisma, session.shop), loadSyncLedger(prisma, session.shop)]);
  return { shop: session.shop, dashboard, syncLedger };
});

export default function Home() {
  const { dashboard, syncLedger } = useLoaderData<typeof loader>();
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
        <Layout.Section>
          {dashboard.hasLeads ? (
            <BlockStack gap="400">
              <DashboardFigures figures={dashboard.figures} />
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
              <EmptyState heading={t("home.empty.title")} image="">
                <p>{t("home.empty.body")}</p>
              </EmptyState>
            </Card>
          )}
        </Layout.Section>
      </Layout>
    </Page>
  );
}
