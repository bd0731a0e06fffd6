/**
 * After a fix saved anywhere (a mapping, a city alias, a trusted customer): the held
 * orders it freed, sent on one confirmation that says how many, how old and how much
 * money, and which of them wait for the merchant's word for their age. Their findings
 * were already rewritten when the fix was saved, so "Cancel" leaves them ready to send.
 */
import { useEffect } from "react";
import { useFetcher } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import type { Release } from "../../sync/release-held.server";
import { useT } from "../../i18n/react";
import { BulkSendModal, bulkFactsOf } from "./BulkSendModal";
import { fixErrorText } from "./text";

/** The route's action answers { intent: "sendReleased", sent } to { intent: "sendReleased", ids }. */
type SendResult = { intent: string; ok?: boolean; sent?: number; resent?: number; error?: string };

export function ReleaseModal({ release, onClose }: { release: Release | null; onClose(): void }) {
  const t = useT();
  const shopify = useAppBridge();
  const fetcher = useFetcher<SendResult>();
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (result?.intent !== "sendReleased") return;
    if (result.ok === false) shopify.toast.show(fixErrorText(t, result.error ?? "invalid"), { isError: true });
    else shopify.toast.show(t("release.sent", { count: result.sent ?? result.resent ?? 0 }));
    onClose();
    // Only a new answer closes it (onClose is a new function on every render).
  }, [result]);
  const open = (release?.orders.length ?? 0) > 0;
  return (
    <BulkSendModal
      id="confirm-release"
      open={open}
      facts={release && open ? bulkFactsOf(release.orders, Date.now(), release.staleOrderDays) : null}
      intro={release ? [t("release.body", { orders: release.orders.map((o) => o.orderName).join(", ") })] : []}
      busy={fetcher.state !== "idle"}
      onConfirm={() =>
        release &&
        fetcher.submit(
          // The count the confirmation stated: the server sends more than one order only with it.
          {
            intent: "sendReleased",
            ids: release.orders.map((o) => o.id).join(","),
            count: String(release.orders.length),
          },
          { method: "post" },
        )
      }
      onClose={onClose}
    />
  );
}
