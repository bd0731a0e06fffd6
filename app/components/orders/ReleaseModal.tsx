/**
 * After a fix saved anywhere (a mapping, a city alias, a trusted customer): the held
 * orders it freed, named, sent with one confirmation. Their findings were already
 * rewritten when the fix was saved, so "Not now" leaves them ready to send, never stale.
 */
import { useEffect } from "react";
import { useFetcher } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import type { Release } from "../../sync/release-held.server";
import { useT } from "../../i18n/react";
import { ConfirmModal } from "../ConfirmModal";

/** The route's action answers { intent: "sendReleased", sent } to { intent: "sendReleased", ids }. */
type SendResult = { intent: string; ok?: boolean; sent?: number; resent?: number };

export function ReleaseModal({ release, onClose }: { release: Release | null; onClose(): void }) {
  const t = useT();
  const shopify = useAppBridge();
  const fetcher = useFetcher<SendResult>();
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (result?.intent !== "sendReleased") return;
    shopify.toast.show(t("release.sent", { count: result.sent ?? result.resent ?? 0 }));
    onClose();
    // Only a new answer closes it (onClose is a new function on every render).
  }, [result]);
  const count = release?.orders.length ?? 0;
  return (
    <ConfirmModal
      id="confirm-release"
      open={count > 0}
      title={t("release.title")}
      body={[
        t("release.body", { orders: (release?.orders ?? []).map((o) => o.orderName).join(", ") }),
        t("release.later"),
      ]}
      confirmLabel={t(count === 1 ? "release.confirm.one" : "release.confirm.other", { count })}
      busy={fetcher.state !== "idle"}
      onConfirm={() =>
        release &&
        fetcher.submit({ intent: "sendReleased", ids: release.orders.map((o) => o.id).join(",") }, { method: "post" })
      }
      onClose={onClose}
    />
  );
}
