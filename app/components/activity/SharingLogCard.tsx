/**
 * The store's sharing log (ShopAuditEvent): pairing codes created here, and
 * stores paired with this one, refused, or unpaired, from either side.
 */
import { BlockStack, Card, IndexTable } from "@shopify/polaris";
import type { MessageKey } from "../../i18n";
import type { LocalTime } from "../../i18n/format";
import { useFormat, useT } from "../../i18n/react";
import { CardHeading } from "../CardHeading";
import { ListTable } from "../ListTable";
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
        <ListTable
          resourceName={{ singular: t("activity.sharing.singular"), plural: t("activity.sharing.plural") }}
          itemCount={events.length}
          empty={t("activity.sharing.empty")}
          headings={[{ title: t("activity.sharing.col.at") }, { title: t("activity.sharing.col.event") }]}
        >
          {events.map((event, index) => (
            <IndexTable.Row id={event.id} key={event.id} position={index}>
              <IndexTable.Cell>{format.dateTime(event.atLocal, { year: true })}</IndexTable.Cell>
              <IndexTable.Cell>
                <span data-audit-kind={event.kind}>{t(messageKey(event), { store: event.peer ?? "" })}</span>
              </IndexTable.Cell>
            </IndexTable.Row>
          ))}
        </ListTable>
      </BlockStack>
    </Card>
  );
}
