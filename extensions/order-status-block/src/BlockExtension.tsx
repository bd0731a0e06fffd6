/** @jsxImportSource preact */
/**
 * Order page block (admin.order-details.block.render): the COD lead's state,
 * statuses, findings and anomalies, the customer's delivery record, with a link
 * to fix them in the app and a button that opens the send action. Renders blockView; the logic is in view-model.ts.
 */
import "@shopify/ui-extensions/preact";
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import {
  blockView,
  orderIdFromSelection,
  parseStatusPayload,
  statusPath,
  type Loadable,
  type Translate,
} from "./view-model";

export default async () => {
  render(<Extension />, document.body);
};

// The action extension's handle (extensions/order-status-action/shopify.extension.toml).
const SEND_ACTION = "extension://order-status-action";

function Extension() {
  const t: Translate = (key, params) => shopify.i18n.translate(key, params);
  const formatDate = (date: Date) => shopify.i18n.formatDate(date, { dateStyle: "medium", timeStyle: "short" });
  const orderId = orderIdFromSelection(shopify.data.selected);
  const [load, setLoad] = useState<Loadable>({ status: "loading" });

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

  const view = blockView(load, t, formatDate);

  return (
    <s-admin-block heading={t("heading")} collapsedSummary={view.summary}>
      {view.loading ? (
        <s-spinner accessibilityLabel={t("loading")} />
      ) : (
        <s-stack gap="base">
          {view.error && <s-banner tone="critical">{view.error}</s-banner>}
          {view.banner && (
            <s-banner tone={view.banner.tone} heading={view.banner.title}>
              {view.banner.body}
            </s-banner>
          )}
          {view.badges.length > 0 && (
            <s-stack direction="inline" gap="small-200">
              {view.badges.map((badge) => (
                <s-badge key={badge.label} tone={badge.tone}>
                  {badge.label}
                </s-badge>
              ))}
            </s-stack>
          )}
          {view.next && (
            <s-text>
              <s-text type="strong">{t("next.label")}:</s-text> {view.next}
            </s-text>
          )}
          {view.details.map((line) => (
            <s-text key={line.label}>
              <s-text type="strong">{t("label", { label: line.label })}</s-text> {line.value}
            </s-text>
          ))}
          {view.findings.length > 0 && (
            <s-stack gap="small-200">
              <s-heading>{t("findings.heading")}</s-heading>
              {view.findings.map((finding, i) => (
                <s-stack key={`${finding.code}-${i}`} direction="inline" gap="small-200">
                  <s-badge tone={finding.tone}>{finding.severityLabel}</s-badge>
                  <s-text>{finding.text}</s-text>
                </s-stack>
              ))}
            </s-stack>
          )}
          {view.anomalies.length > 0 && (
            <s-stack gap="small-200">
              <s-heading>{t("anomalies.heading")}</s-heading>
              <s-unordered-list>
                {view.anomalies.map((text, i) => (
                  <s-list-item key={`${i}`}>{text}</s-list-item>
                ))}
              </s-unordered-list>
            </s-stack>
          )}
          {view.customer && (
            <s-stack gap="small-200">
              <s-stack direction="inline" gap="small-200" alignItems="center">
                <s-heading>{t("customer.heading")}</s-heading>
                <s-badge tone={view.customer.risk.tone}>{view.customer.risk.label}</s-badge>
              </s-stack>
              <s-text>{view.customer.orders}</s-text>
              {view.customer.counts.length > 0 && <s-text>{view.customer.counts.join(" · ")}</s-text>}
              {view.customer.lastOutcome && <s-text>{view.customer.lastOutcome}</s-text>}
            </s-stack>
          )}
          {(view.fixHref || view.sendLabel) && (
            <s-stack direction="inline" gap="base" alignItems="center">
              {view.sendLabel && (
                <s-button variant="primary" onClick={() => shopify.navigation.navigate(SEND_ACTION)}>
                  {view.sendLabel}
                </s-button>
              )}
              {view.fixHref && <s-link href={view.fixHref}>{view.fixLabel}</s-link>}
            </s-stack>
          )}
        </s-stack>
      )}
    </s-admin-block>
  );
}
