/**
 * The store's sharing log (ShopAuditEvent): pairing codes created here, and
 * stores paired with this one, refused, or unpaired, from either side.
 */
import { BlockStack, Card } from "@shopify/polaris";
import { ScrollTable } from "../ScrollTable";
import { TableEmptyText } from "../TableEmptyText";
import type { MessageKey } from "../../i18n";
import type { LocalTime } from "../../i18n/format";
import { useFormat, useT } from "../../i18n/react";
import { CardHeading } from "../CardHeading";
import type { AuditEventView } from "../../customers/pairing.server";

/** An event with its instant on the shop's wall clock (made by the loader). */
export type SharingEventOnPage = AuditEventView & { atLocal: LocalTime };

function messageKey(event: AuditEventView): MessageKey {
  const side = event.byHere ? "here" : "there";
  if (event.kind === "pairing.code_created") return "activity.sharing.code_created";
  if (event.kind === "pairing.joined") return `activity.sharing.joined.${side}`;
  if (event.kind === "pairing.refused") return `activity.sharing.refused.${side}`;
  return `activity.sharing.ended.${side}`;
}

export function SharingLogCard({ events }: { events: SharingEventOnPage[] }) {
  const t = useT();
  const format = useFormat();
  return (
    <Card padding="0">
      <BlockStack gap="200">
        <div style={{ padding: "var(--p-space-400) var(--p-space-400) 0" }}>
          <CardHeading title={t("activity.sharing.title")} intro={t("activity.sharing.intro")} />
        </div>
        {events.length === 0 ? (
          <TableEmptyText>{t("activity.sharing.empty")}</TableEmptyText>
        ) : (
          <ScrollTable
            label={t("activity.sharing.title")}
            headings={[t("activity.sharing.col.at"), t("activity.sharing.col.event")]}
            rows={events.map((event) => ({
              key: event.id,
              cells: [
                format.dateTime(event.atLocal, { year: true }),
                <span key="event" className="cod-cell-wrap" style={{ display: "block" }} data-audit-kind={event.kind}>
                  {t(messageKey(event), { store: event.peer ?? "" })}
                </span>,
              ],
            }))}
          />
        )}
      </BlockStack>
    </Card>
  );
}
