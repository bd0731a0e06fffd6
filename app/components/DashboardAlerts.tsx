/** The Home page's alerts as Banners, each with its next step. */
import { Banner, BlockStack } from "@shopify/polaris";
import { translateCode, useT } from "../i18n/react";
import type { DashboardAlert } from "../pages/home.server";

export function DashboardAlerts({ alerts }: { alerts: DashboardAlert[] }) {
  const t = useT();
  if (alerts.length === 0) return null;
  return (
    <BlockStack gap="300">
      {alerts.map((alert) => {
        switch (alert.kind) {
          case "paused":
            return (
              <Banner
                key={alert.kind}
                tone="critical"
                title={t("home.alert.paused.title")}
                action={{ content: t("home.alert.openSettings"), url: "/app/settings" }}
              >
                <p>{t("home.alert.paused.body", { reason: translateCode(t, "paused", alert.reason) })}</p>
              </Banner>
            );
          case "backlog":
            return (
              <Banner key={alert.kind} tone="warning" title={t("home.alert.backlog.title")}>
                <p>{t("home.alert.backlog.body", { count: alert.pending, minutes: alert.oldestMinutes })}</p>
              </Banner>
            );
          case "dead":
            return (
              <Banner
                key={alert.kind}
                tone="warning"
                title={t("home.alert.dead.title")}
                action={{ content: t("home.alert.openActivity"), url: "/app/activity" }}
              >
                <p>{t("home.alert.dead.body", { count: alert.count })}</p>
              </Banner>
            );
          case "stale":
            return (
              <Banner key={alert.kind} tone="warning" title={t("home.alert.stale.title")}>
                <p>
                  {alert.minutesSince === null
                    ? t("home.alert.stale.never", { expected: alert.expectedMinutes })
                    : t("home.alert.stale.body", { minutes: alert.minutesSince, expected: alert.expectedMinutes })}
                </p>
              </Banner>
            );
        }
      })}
    </BlockStack>
  );
}
