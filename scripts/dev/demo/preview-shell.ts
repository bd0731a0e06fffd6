/**
 * The preview's page at `/`: a frame like the Shopify admin's around the app's
 * iframe, with the app's own navigation (read from its <ui-nav-menu>) on the left,
 * in the admin's language (the merchant's: the Language menu switches it, and the
 * app is opened in it as Shopify opens apps).
 */
import { APP_BRIDGE_STUB_PATH, OPEN_PATH, UNINSTALL_PATH } from "./app-bridge-stub";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The stand-in admin's own words (the app's come from the app). */
const WORDS = {
  en: {
    language: "Language",
    store: "Store",
    uninstall: "Uninstall the app",
    badge: "Local preview of the embedded admin · demo data",
    names: { en: "English", fr: "Français" },
    gone: (app: string, store: string) => `${app} was uninstalled from ${store}`,
    goneBody:
      "Shopify revoked its access and told the app (app/uninstalled). Orders placed now are held until the app is installed again.",
    openAgain: "Open the app again",
    openAgainNote: "(installs it again through the token exchange)",
  },
  fr: {
    language: "Langue",
    store: "Boutique",
    uninstall: "Désinstaller l'application",
    badge: "Aperçu local de l'administration intégrée · données de démonstration",
    names: { en: "English", fr: "Français" },
    gone: (app: string, store: string) => `${app} a été désinstallée de ${store}`,
    goneBody:
      "Shopify a retiré ses accès et l'a signalé à l'application (app/uninstalled). Les commandes passées maintenant sont retenues jusqu'à sa réinstallation.",
    openAgain: "Rouvrir l'application",
    openAgainNote: "(la réinstalle par l'échange de jetons)",
  },
} as const;

export interface PreviewShellOptions {
  apiKey: string;
  /** The admin's language, and the others it can switch to. */
  locale?: keyof typeof WORDS;
  languages?: (keyof typeof WORDS)[];
  /** The shop shown. */
  shop: string;
  /** Every shop the preview can show (a switcher when more than one). */
  shops?: string[];
  appName: string;
  storeName: string;
  /** Show "Uninstall the app" (the demo's Shopify stand-in can do it). */
  canUninstall?: boolean;
  /** Just uninstalled: the app is not opened (that would install it again) until asked. */
  uninstalled?: boolean;
}

export function previewShellHtml(options: PreviewShellOptions): string {
  const { apiKey, shop, appName, storeName } = options;
  const locale = options.locale ?? "en";
  const words = WORDS[locale];
  const shops = options.shops ?? [shop];
  const languages = options.languages ?? [];
  const languageMenu =
    languages.length > 1
      ? `<label class="switch">${words.language} <select id="language" onchange="location.href='/?shop=${encodeURIComponent(shop)}&locale='+this.value">${languages
          .map((l) => `<option value="${l}"${l === locale ? " selected" : ""}>${escapeHtml(words.names[l])}</option>`)
          .join("")}</select></label>`
      : "";
  const openPath = `${OPEN_PATH}?shop=${encodeURIComponent(shop)}&path=`;
  const switcher =
    shops.length > 1
      ? `<label class="switch">${words.store} <select id="shops" onchange="location.href='/?shop='+encodeURIComponent(this.value)">${shops
          .map((s) => `<option value="${escapeHtml(s)}"${s === shop ? " selected" : ""}>${escapeHtml(s)}</option>`)
          .join("")}</select></label>`
      : "";
  const uninstall = options.canUninstall
    ? `<form method="post" action="${UNINSTALL_PATH}?shop=${encodeURIComponent(shop)}"><button type="submit">${escapeHtml(words.uninstall)}</button></form>`
    : "";
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(appName)} · ${escapeHtml(storeName)} (local preview)</title>
<script src="${APP_BRIDGE_STUB_PATH}" data-api-key="${escapeHtml(apiKey)}"></script>
<style>
  * { box-sizing: border-box; }
  html, body { margin: 0; height: 100%; font: 14px/1.4 -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, sans-serif; background: #1a1a1a; }
  header { height: 52px; display: flex; align-items: center; gap: 12px; padding: 0 16px; color: #e3e3e3; }
  header .logo { width: 28px; height: 28px; border-radius: 8px; background: #95bf47; color: #1a1a1a; font-weight: 700; display: grid; place-items: center; }
  header .store { margin: 0; font-size: inherit; font-weight: 600; }
  header .badge { margin-left: auto; font-size: 12px; padding: 3px 8px; border-radius: 8px; background: #303030; color: #b5b5b5; }
  header .switch { font-size: 12px; color: #b5b5b5; } header select { margin-left: 4px; }
  header form { margin: 0; } header button { font: inherit; font-size: 12px; padding: 3px 8px; border-radius: 8px; border: 1px solid #5c5c5c; background: #303030; color: #e3e3e3; cursor: pointer; }
  .layout { display: flex; height: calc(100% - 52px); background: #f1f1f1; border-radius: 12px 12px 0 0; overflow: hidden; }
  nav { width: 240px; padding: 12px 8px; background: #ebebeb; overflow-y: auto; }
  nav .app { display: flex; align-items: center; gap: 8px; padding: 6px 8px; font-weight: 650; color: #303030; }
  nav .app span { width: 20px; height: 20px; border-radius: 5px; background: #005bd3; }
  nav a { display: block; margin: 1px 0 1px 20px; padding: 5px 10px; border-radius: 8px; color: #303030; text-decoration: none; }
  nav a:hover { background: #e0e0e0; }
  nav a.active { background: #fafafa; font-weight: 600; }
  main { flex: 1; display: flex; }
  iframe { flex: 1; border: 0; background: #f1f1f1; }
  .gone { margin: 48px auto; max-width: 560px; color: #303030; } .gone h1 { font-size: 18px; }
  #toasts { position: fixed; left: 50%; bottom: 24px; transform: translateX(-50%); display: grid; gap: 8px; }
  .toast { padding: 10px 16px; border-radius: 10px; background: #303030; color: #fff; box-shadow: 0 4px 12px rgba(0,0,0,.25); }
  .toast.error { background: #8e1f0b; }
  /* A phone: the admin's menu becomes a strip above the app, which keeps the whole width, as in Shopify's mobile admin. */
  @media (max-width: 640px) {
    body { display: flex; flex-direction: column; }
    header { height: auto; flex-wrap: wrap; gap: 6px 12px; padding: 8px 12px; }
    header .domain { display: none; }
    header .badge { margin-left: 0; }
    .layout { flex: 1; min-height: 0; height: auto; flex-direction: column; }
    nav { width: 100%; display: flex; align-items: center; padding: 6px 8px; overflow-x: auto; flex: none; }
    nav .app { display: none; }
    #links { display: flex; gap: 4px; }
    nav a { margin: 0; white-space: nowrap; }
  }
</style>
</head>
<body>
<header><div class="logo">S</div><h1 class="store">${escapeHtml(storeName)}</h1><div class="domain">${escapeHtml(shop)}</div>
${switcher}${languageMenu}<div class="badge">${escapeHtml(words.badge)}</div>${uninstall}</header>
<div class="layout">
  <nav><div class="app"><span></span>${escapeHtml(appName)}</div><div id="links"></div></nav>
  <main>${
    options.uninstalled
      ? `<div class="gone"><h1>${escapeHtml(words.gone(appName, storeName))}</h1><p>${escapeHtml(words.goneBody)}</p><p><a href="/?shop=${encodeURIComponent(shop)}">${escapeHtml(words.openAgain)}</a> ${escapeHtml(words.openAgainNote)}</p></div>`
      : `<iframe id="app" title="${escapeHtml(appName)}" src="${openPath}/app"></iframe>`
  }</main>
</div>
<div id="toasts"></div>
<script>
(() => {
  const frame = document.getElementById("app");
  const links = document.getElementById("links");
  let signature = "";
  window.__previewToast = (message, isError) => {
    const el = document.createElement("div");
    el.className = "toast" + (isError ? " error" : "");
    el.textContent = message;
    document.getElementById("toasts").appendChild(el);
    setTimeout(() => el.remove(), 5000);
  };
  function refreshNav() {
    let doc;
    try { doc = frame.contentDocument; } catch (e) { return; }
    if (!doc) return;
    const anchors = [...doc.querySelectorAll("ui-nav-menu a")];
    const here = frame.contentWindow.location.pathname;
    const items = anchors.map((a) => ({ href: a.getAttribute("href") || "/app", label: a.textContent.trim(), home: a.getAttribute("rel") === "home" }));
    const next = JSON.stringify(items) + here;
    if (next === signature) return;
    signature = next;
    links.replaceChildren(...items.map((item, i) => {
      const link = document.createElement("a");
      link.href = "#";
      link.textContent = item.label;
      const path = new URL(item.href, location.href).pathname;
      if (path === here || (item.home && here === "/app/")) link.className = "active";
      link.onclick = (event) => {
        event.preventDefault();
        // The app's own link (hidden in its nav menu) navigates inside the app, as the admin's menu does.
        const inner = frame.contentDocument && frame.contentDocument.querySelectorAll("ui-nav-menu a")[i];
        if (inner) inner.click();
        else frame.src = ${JSON.stringify(openPath)} + encodeURIComponent(path);
      };
      return link;
    }));
  }
  frame.addEventListener("load", refreshNav);
  setInterval(refreshNav, 500);
})();
</script>
</body>
</html>
`;
}
