/**
 * App Bridge's modal, as the offline stand-ins of App Bridge (the demo
 * preview's and the browser tests') draw it: `<ui-modal>` is a custom element
 * with show(), hide() and toggle() (App Bridge React's <Modal> calls them), drawn
 * as a dialog over the page, its title above and its title bar's buttons below its content
 * (what App Bridge React portals into `modal.content`); `shopify.modal` opens
 * and closes one by id. The admin draws the real one over the app's frame.
 *
 * A script fragment: it expects `window.shopify` in scope.
 */
export const MODAL_STUB = `
  (() => {
    window.shopify.modal = {
      show: async (id) => document.getElementById(id)?.show(),
      hide: async (id) => document.getElementById(id)?.hide(),
      toggle: async (id) => document.getElementById(id)?.toggle(),
    };
    const style = document.createElement("style");
    style.textContent =
      "ui-modal { display: none; }" +
      "ui-modal[open] { display: flex; flex-direction: column; position: fixed; top: 10%; left: max(12px, 50% - 320px); right: max(12px, 50% - 320px); max-height: 80%; z-index: 1000; background: #fff; color: #303030; border-radius: 12px; box-shadow: 0 0 0 100vmax rgba(0,0,0,.5); overflow: auto; }" +
      "ui-modal[open]::before { content: attr(aria-label); order: -1; font-weight: 650; padding: 12px 16px; border-bottom: 1px solid #e3e3e3; }" +
      "ui-modal[open] ui-title-bar { order: 1; display: flex !important; gap: 8px; justify-content: flex-end; padding: 12px 16px; border-top: 1px solid #e3e3e3; }" +
      "ui-modal[open] ui-title-bar button { font: inherit; padding: 6px 12px; border-radius: 8px; border: 1px solid #8a8a8a; background: #fff; color: #303030; cursor: pointer; }" +
      "ui-modal[open] ui-title-bar button[variant=primary] { background: #303030; color: #fff; }" +
      "ui-modal[open] ui-title-bar button[variant=primary][tone=critical] { background: #8e1f0b; border-color: #8e1f0b; }";
    (document.head || document.documentElement).appendChild(style);
    if (customElements.get("ui-modal")) return;
    customElements.define(
      "ui-modal",
      class extends HTMLElement {
        constructor() {
          super();
          this.content = document.createElement("div");
        }
        async show() {
          // Placed only when shown: the server-rendered markup stays what React hydrates.
          if (!this.content.isConnected) this.appendChild(this.content);
          this.setAttribute("role", "dialog");
          this.setAttribute("aria-modal", "true");
          const title = this.querySelector("ui-title-bar");
          if (title && title.getAttribute("title")) this.setAttribute("aria-label", title.getAttribute("title"));
          this.setAttribute("open", "");
          this.dispatchEvent(new Event("show"));
        }
        async hide() {
          if (!this.hasAttribute("open")) return;
          this.removeAttribute("open");
          this.dispatchEvent(new Event("hide"));
        }
        async toggle() {
          return this.hasAttribute("open") ? this.hide() : this.show();
        }
      },
    );
  })();
`;
