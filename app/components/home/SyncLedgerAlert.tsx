/** Home's alert when orders have not reached the platform for longer than the sync ledger's threshold, each linked. */
import { Banner, BlockStack, InlineStack, Link, Text } from "@shopify/polaris";
import { useFormat, useT } from "../../i18n/react";
import type { SyncLedgerView } from "../../pages/sync-ledger.server";
import { stuckStateText } from "../sync-ledger/text";
import { SYNC_LEDGER_ANCHOR } from "./SyncLedgerCard";

export function SyncLedgerAlert({ ledger }: { ledger: SyncLedgerView }) {
  const t = useT();
  const format = useFormat();
  const { stuck, stuckMinutes } = ledger;
  if (stuck.total === 0) return null;
  const title = t("syncLedger.alert.title", { count: stuck.total, minutes: stuckMinutes });
  return (
    <div data-sync-ledger-alert={stuck.total}>
      <Banner tone="critical" title={title} action={{ content: t("syncLedger.open"), url: SYNC_LEDGER_ANCHOR }}>
        <BlockStack gap="100">
          <p>{t("syncLedger.alert.body")}</p>
          <InlineStack gap="300" wrap>
            {stuck.orders.slice(0, 5).map((order) => (
              <Text as="span" key={order.id}>
                <Link url={`/app/orders/${order.id}`}>{order.orderName}</Link>
                {t("syncLedger.alert.item", {
                  state: stuckStateText(t, order.state),
                  minutes: format.integer(order.minutes),
                })}
              </Text>
            ))}
            {stuck.total > 5 ? (
              <Text as="span">{t("syncLedger.stuck.more", { count: format.integer(stuck.total - 5) })}</Text>
            ) : null}
          </InlineStack>
        </BlockStack>
      </Banner>
    </div>
  );
}
