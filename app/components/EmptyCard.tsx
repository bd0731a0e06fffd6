/**
 * A page with nothing to show yet: what would be here and the way on, or, while the shop is
 * not connected to its platform, the way to connect first (Home, Orders, Anomalies).
 */
import type { ComponentProps } from "react";
import { Card, EmptyState } from "@shopify/polaris";
import { useT } from "../i18n/react";
import { EMPTY_STATE_IMAGE } from "./EmptyStateImage";

type Action = ComponentProps<typeof EmptyState>["action"];

export function EmptyCard({
  connected,
  heading,
  body,
  action,
  secondaryAction,
  connectBody,
}: {
  connected: boolean;
  heading: string;
  body: string;
  action?: Action;
  secondaryAction?: Action;
  /** Why this page needs the connection. */
  connectBody: string;
}) {
  const t = useT();
  return (
    <Card>
      {connected ? (
        <EmptyState heading={heading} image={EMPTY_STATE_IMAGE} action={action} secondaryAction={secondaryAction}>
          <p>{body}</p>
        </EmptyState>
      ) : (
        <EmptyState
          heading={t("empty.connect.title")}
          image={EMPTY_STATE_IMAGE}
          action={{ content: t("empty.connect.action"), url: "/app/settings" }}
        >
          <p>{connectBody}</p>
        </EmptyState>
      )}
    </Card>
  );
}
