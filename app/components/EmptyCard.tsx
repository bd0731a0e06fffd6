/**
 * A page with nothing to show yet (Home, Orders, Anomalies): its own empty state with the way
 * on, or, while the shop is not connected to its platform, the way to connect first. The
 * words are the page's: `<page>.empty.title`, `<page>.empty.body` and `empty.connect.<page>`.
 */
import type { ComponentProps } from "react";
import { Card, EmptyState } from "@shopify/polaris";
import { useT } from "../i18n/react";
import { EMPTY_STATE_IMAGE } from "./EmptyStateImage";

type Action = ComponentProps<typeof EmptyState>["action"];

export function EmptyCard({
  page,
  connected,
  action,
  secondaryAction,
}: {
  page: "home" | "orders" | "anomalies";
  connected: boolean;
  action?: Action;
  secondaryAction?: Action;
}) {
  const t = useT();
  return (
    <Card>
      {connected ? (
        <EmptyState
          heading={t(`${page}.empty.title`)}
          image={EMPTY_STATE_IMAGE}
          action={action}
          secondaryAction={secondaryAction}
        >
          <p>{t(`${page}.empty.body`)}</p>
        </EmptyState>
      ) : (
        <EmptyState
          heading={t("empty.connect.title")}
          image={EMPTY_STATE_IMAGE}
          action={{ content: t("empty.connect.action"), url: "/app/settings" }}
        >
          <p>{t(`empty.connect.${page}`)}</p>
        </EmptyState>
      )}
    </Card>
  );
}
