import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation, useRouteError } from "@remix-run/react";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";
import { resolveLocale } from "./i18n";
import { StandaloneErrorPage } from "./components/ErrorPage";

export default function App() {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <link rel="preconnect" href="https://cdn.shopify.com/" />
        <link rel="stylesheet" href="https://cdn.shopify.com/static/fonts/inter/v4/styles.css" />
        <Meta />
        <Links />
      </head>
      <body>
        <Outlet />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

/** Whatever no route boundary caught (the layout's own boundary failing, a page outside /app): still a Polaris page. */
export function ErrorBoundary() {
  const error = useRouteError();
  const locale = resolveLocale(new URLSearchParams(useLocation().search).get("locale"));
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <title>COD Lead Sync</title>
        <link rel="stylesheet" href={polarisStyles} />
        <Meta />
        <Links />
      </head>
      <body>
        <StandaloneErrorPage error={error} locale={locale} />
        <Scripts />
      </body>
    </html>
  );
}
