/** @jsxImportSource preact */
/**
 * Order page action (admin.order-details.action.render): "Send to COD platform"
 * for a held order, "Resend" for a refused or failed one, with the findings
 * still on the order shown before the merchant confirms. Renders actionView
 * from the block's view model.
 */
import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import {
  actionView,
  orderIdFromSelection,
  parseStatusPayload,
  sendPath,
  statusPath,
  type FindingLine,
  type Loadable,
  type SendOutcome,
  type Translate,
} from "../../order-status-block/src/view-model";

export default async () => {
  render(<Extension />, document.body);
};

function Extension() {
  const t: Translate = (key, params) => shopify.i18n.translate(key, params);
  const orderId = orderIdFromSelection(shopify.data.selected);
  const [load, setLoad] = useState<Loadable>({ status: "loading" });
  const [outcome, setOutcome] = useState<SendOutcome>({ status: "idle" });

  useEffect(() => {
    if (!orderId) {
      setLoad({ status: "error" });
      return;
    }
    let live = true;
    // Relative URL: the admin resolves it against the app's URL and adds the session token.
    fetch(statusPath(orderId, t("locale")))
      .then(async (response) => (response.ok ? parseStatusPayload(await response.json()) : null))
      .catch(() => null)
      .then((payload) => {
        if (live) setLoad(payload ? { status: "ready", payload } : { status: "error" });
      });
    return () => {
      live = false;
    };
  }, [orderId]);

  const send = async () => {
    if (!orderId) return;
    setOutcome({ status: "sending" });
    try {
      const response = await fetch(sendPath(orderId), { method: "POST" });
      const payload = response.ok ? parseStatusPayload(await response.json()) : null;
      if (payload) {
        setLoad({ status: "ready", payload });
        setOutcome({ status: "sent" });
      } else {
        setOutcome({ status: "failed", httpStatus: response.status });
      }
    } catch {
      setOutcome({ status: "failed", httpStatus: 0 });
    }
  };

  const view = actionView(load, outcome, t);

  return (
    <s-admin-action heading={view.heading} loading={view.loading}>
      <s-stack gap="base">
        {view.banner && (
          <s-banner tone={view.banner.tone} heading={view.banner.title}>
            {view.banner.body}
          </s-banner>
        )}
        {view.confirmLabel && <s-paragraph>{t("action.intro")}</s-paragraph>}
        {view.blocking.length > 0 && (
          <s-stack gap="small-200">
            {view.blockingNote && <s-text tone="critical">{view.blockingNote}</s-text>}
            <FindingList lines={view.blocking} />
          </s-stack>
        )}
        {view.warnings.length > 0 && <FindingList lines={view.warnings} />}
      </s-stack>
      {view.confirmLabel && (
        <s-button slot="primary-action" variant="primary" loading={view.sending} disabled={view.sending} onClick={send}>
          {view.sending ? t("action.sending") : view.confirmLabel}
        </s-button>
      )}
      <s-button slot="secondary-actions" onClick={() => shopify.close()}>
        {view.done || !view.confirmLabel ? t("action.close") : t("action.cancel")}
      </s-button>
    </s-admin-action>
  );
}

function FindingList({ lines }: { lines: FindingLine[] }) {
  return (
    <s-stack gap="small-200">
      {lines.map((line, i) => (
        <s-stack key={`${line.code}-${i}`} direction="inline" gap="small-200">
          <s-badge tone={line.tone}>{line.severityLabel}</s-badge>
          <s-text>{line.text}</s-text>
        </s-stack>
      ))}
    </s-stack>
  );
}
