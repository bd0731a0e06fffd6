import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { LoginErrorType } from "@shopify/shopify-app-remix/server";
import { login } from "../../shopify.server";

function describe(errors: Awaited<ReturnType<typeof login>> | undefined): string | undefined {
  if (!errors || errors instanceof Response) return undefined;
  if (errors.shop === LoginErrorType.MissingShop) return "Enter your shop domain to log in.";
  if (errors.shop === LoginErrorType.InvalidShop) return "Enter a valid shop domain, such as my-shop.myshopify.com.";
  return undefined;
}

export const loader = async ({ request }: LoaderFunctionArgs) => ({ error: describe(await login(request)) });
export const action = async ({ request }: ActionFunctionArgs) => ({ error: describe(await login(request)) });

export default function Login() {
  const loaded = useLoaderData<typeof loader>();
  const acted = useActionData<typeof action>();
  const error = acted?.error ?? loaded.error;
  return (
    <main style={{ fontFamily: "Inter, system-ui, sans-serif", maxWidth: 480, margin: "4rem auto" }}>
      <h1>Log in</h1>
      <Form method="post">
        <label>
          Shop domain <input type="text" name="shop" autoComplete="on" placeholder="my-shop.myshopify.com" />
        </label>
        {error && <p role="alert">{error}</p>}
        <button type="submit">Log in</button>
      </Form>
    </main>
  );
}
