/**
 * App Bridge's contextual save bar and leave confirmation, as the offline
 * stand-ins of App Bridge (the demo preview's and the browser tests') draw
 * them: `<ui-save-bar>` shows a bar at the top of the page whose Save and
 * Discard buttons press the element's own `<button>` children (the primary one
 * is Save), as the Shopify admin does with the bar it draws over the app; and
 * `shopify.saveBar.leaveConfirmation()` asks the browser's confirm dialog while
 * a bar shows (resolving only when the merchant chooses to leave).
 *
 * The bar takes its own room at the top of the page, so it covers nothing of it.
 * A script fragment: it expects `window.shopify` and a `config.locale` in scope.
 */
export const SAVE_BAR_STUB = `
  (() => {
    const WORDS = {
      en: { bar: "Unsaved changes", leave: "Leave this page? Your unsaved changes will be lost." },
      fr: { bar: "Modifications non enregistrées", leave: "Quitter cette page ? Vos modifications non enregistrées seront perdues." },
    };
    const words = WORDS[String(config.locale || "en").slice(0, 2)] || WORDS.en;
    let bar = null;
    const showingBars = () => [...document.querySelectorAll("ui-save-bar")].filter((el) => el.showing);
    function draw() {
      const shown = showingBars()[0];
      if (!shown) {
        if (bar) bar.remove();
        bar = null;
        return;
      }
      if (!bar) {
        bar = document.createElement("div");
        bar.setAttribute("data-app-bridge-stub", "save-bar");
        bar.setAttribute("role", "region");
        bar.setAttribute("aria-label", words.bar);
        bar.style.cssText = "display:flex;gap:8px;justify-content:flex-end;align-items:center;padding:8px 16px;background:#1a1a1a;";
        // The admin draws its bar above the app; here it takes its own room at the top, covering nothing.
        document.body.prepend(bar);
      }
      const children = [...shown.querySelectorAll("button")];
      const ordered = [...children.filter((b) => b.getAttribute("variant") !== "primary"), ...children.filter((b) => b.getAttribute("variant") === "primary")];
      bar.replaceChildren(
        ...ordered.map((child) => {
          const button = document.createElement("button");
          const primary = child.getAttribute("variant") === "primary";
          button.type = "button";
          button.textContent = child.textContent;
          button.disabled = child.disabled;
          button.setAttribute("data-save-bar-button", primary ? "save" : "discard");
          button.style.cssText = "font:inherit;padding:6px 12px;border-radius:8px;cursor:pointer;border:1px solid " + (primary ? "#fff;background:#fff;color:#1a1a1a" : "#8a8a8a;background:#303030;color:#fff");
          button.addEventListener("click", () => child.click());
          return button;
        }),
      );
    }
    class UISaveBar extends HTMLElement {
      connectedCallback() {
        this._observer = new MutationObserver(draw);
        this._observer.observe(this, { subtree: true, childList: true, attributes: true, characterData: true });
      }
      disconnectedCallback() {
        if (this._observer) this._observer.disconnect();
        this._showing = false;
        draw();
      }
      get showing() { return Boolean(this._showing); }
      show() { this._showing = true; draw(); this.dispatchEvent(new Event("show")); return Promise.resolve(); }
      hide() { const was = this._showing; this._showing = false; draw(); if (was) this.dispatchEvent(new Event("hide")); return Promise.resolve(); }
      toggle() { return this._showing ? this.hide() : this.show(); }
    }
    if (!customElements.get("ui-save-bar")) customElements.define("ui-save-bar", UISaveBar);
    const byId = (id) => document.getElementById(id);
    window.shopify.saveBar = {
      show: async (id) => { const el = byId(id); if (el && el.show) await el.show(); },
      hide: async (id) => { const el = byId(id); if (el && el.hide) await el.hide(); },
      toggle: async (id) => { const el = byId(id); if (el && el.toggle) await el.toggle(); },
      leaveConfirmation: () => (showingBars().length === 0 || window.confirm(words.leave) ? Promise.resolve() : new Promise(() => {})),
    };
  })();
`;
