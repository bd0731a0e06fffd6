/**
 * A form with unsaved changes, the Shopify way: App Bridge's contextual save
 * bar (Save, Discard) while it differs from what is saved, and leaving asks
 * first, for a link inside the app (App Bridge's leave confirmation) and for a
 * reload or a closed tab (the browser's own prompt).
 */
import { useEffect, type ReactNode } from "react";
import { useBlocker } from "@remix-run/react";
import { SaveBar, useAppBridge } from "@shopify/app-bridge-react";

export function useLeaveConfirmation(dirty: boolean): void {
  const shopify = useAppBridge();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    let live = true;
    // Resolves once the merchant chose to leave (never when they stay).
    void shopify.saveBar.leaveConfirmation().then(() => {
      if (live && blocker.state === "blocked") blocker.proceed();
    });
    return () => {
      live = false;
    };
  }, [blocker, shopify]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);
}

/** The save bar of one form: shown while `dirty`; its buttons are the form's Save and Discard. */
export function UnsavedChangesBar({
  id,
  dirty,
  saving,
  onSave,
  onDiscard,
  saveLabel,
  discardLabel,
}: {
  id: string;
  dirty: boolean;
  saving: boolean;
  onSave: () => void;
  onDiscard: () => void;
  saveLabel: ReactNode;
  discardLabel: ReactNode;
}) {
  useLeaveConfirmation(dirty);
  return (
    <SaveBar id={id} open={dirty}>
      <button variant="primary" onClick={onSave} loading={saving ? "" : undefined} disabled={saving}>
        {saveLabel}
      </button>
      <button onClick={onDiscard} disabled={saving}>
        {discardLabel}
      </button>
    </SaveBar>
  );
}
