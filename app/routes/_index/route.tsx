import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { login } from "../../shopify.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const url = new URL(request.url);
  // Shopify opens the app with ?shop=…: go straight to the embedded admin.
  if (url.searchParams.get("shop")) throw redirect(`/app?${url.searchParams.toString()}`);
  return { showForm: Boolean(login) };
};

export default function Index() {
  const { showForm } = useLoaderData<typeof loader>();
  return (
    <main style={{ fontFamily: "Inter, system-ui, sans-serif", maxWidth: 640, margin: "4rem auto", padding: "0 1rem" }}>
      <h1>COD Lead Sync</h1>
      <p>
        Every cash-on-delivery order of your Shopify store becomes a lead on your COD fulfilment platform, with its
        confirmation and shipping status back in your Shopify admin.
      </p>
      {showForm && (
        <Form method="post" action="/auth/login">
          <label>
            Shop domain <input type="text" name="shop" placeholder="my-shop.myshopify.com" />
          </label>{" "}
          <button type="submit">Log in</button>
        </Form>
      )}
    </main>
  );
}
