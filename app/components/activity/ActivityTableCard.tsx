/**
 * One of Activity's paged tables as a card: its heading and filters on top, the table (or what
 * says it is empty) edge to edge, its pages below. Times in it are shown in the app's zone, which
 * the intro says (zonedIntro).
 */
import type { ReactNode } from "react";
import { BlockStack, Card } from "@shopify/polaris";
import { TableEmptyText } from "../TableEmptyText";
import { TablePages } from "../TablePages";
import { zoneName, type Translate } from "../../i18n/react";
import { DEFAULT_TIME_ZONE } from "../../analytics/days";

/** The card's intro followed by the zone its times are shown in. */
export function zonedIntro(t: Translate, intro: string): ReactNode {
  return (
    <>
      {intro} {t("time.shown", { zone: zoneName(t, DEFAULT_TIME_ZONE) })}
    </>
  );
}

export function ActivityTableCard({
  header,
  empty,
  table,
  pages,
}: {
  header: ReactNode;
  /** What the card says when it has no row; null when it has rows. */
  empty: string | null;
  table: () => ReactNode;
  pages: { hasNext: boolean; hasPrevious: boolean; onNext(): void; onPrevious(): void; label: string };
}) {
  return (
    <Card padding="0">
      <div style={{ padding: "var(--p-space-400)" }}>
        <BlockStack gap="300">{header}</BlockStack>
      </div>
      {empty !== null ? <TableEmptyText>{empty}</TableEmptyText> : table()}
      <TablePages {...pages} />
    </Card>
  );
}
