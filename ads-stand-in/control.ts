/**
 * The control API both stand-ins answer under /_control, to loopback callers
 * only: credentials to accept, faults to inject, the clock, and what was
 * received (kept events, duplicates, the request log).
 */
import type { HttpBindings } from "@hono/node-server";
import { Hono } from "hono";
import { z } from "zod";
import { faultSchema, isLoopback, type StandInState } from "./common";

const credentialSchema = z
  .object({ id: z.string().min(1), token: z.string().min(1), name: z.string().optional() })
  .strict();
const clockSchema = z.object({ advance_seconds: z.number() }).strict();

export function controlApi(state: StandInState): Hono<{ Bindings: HttpBindings }> {
  const control = new Hono<{ Bindings: HttpBindings }>();
  control.use("*", async (c, next) => {
    if (!isLoopback(c.env?.incoming?.socket?.remoteAddress))
      return c.json({ error: "control API: loopback only" }, 403);
    await next();
  });
  const body = async (c: { req: { json(): Promise<unknown> } }) => c.req.json().catch(() => ({}));

  control.post("/reset", (c) => {
    state.reset();
    return c.json({ ok: true });
  });
  control.post("/credentials", async (c) => {
    const parsed = credentialSchema.safeParse(await body(c));
    if (!parsed.success) return c.json({ error: parsed.error.issues[0].message }, 400);
    const { id, token, name } = parsed.data;
    state.credentials = state.credentials.filter((k) => !(k.id === id && k.token === token));
    state.credentials.push({ id, token, name: name ?? `Dataset ${id}` });
    return c.json({ ok: true });
  });
  control.post("/faults", async (c) => {
    const parsed = faultSchema.safeParse(await body(c));
    if (!parsed.success) return c.json({ error: parsed.error.issues[0].message }, 400);
    const times = parsed.data.times === undefined ? 1 : parsed.data.times;
    state.faults.push({ ...parsed.data, remaining: times, hits: 0 });
    return c.json({ ok: true });
  });
  control.delete("/faults", (c) => {
    state.faults = [];
    return c.json({ ok: true });
  });
  control.post("/clock", async (c) => {
    const parsed = clockSchema.safeParse(await body(c));
    if (!parsed.success) return c.json({ error: parsed.error.issues[0].message }, 400);
    state.offsetMs += parsed.data.advance_seconds * 1000;
    return c.json({ now: new Date(state.now()).toISOString() });
  });
  control.get("/events", (c) => {
    const target = c.req.query("target");
    return c.json({
      events: state.events.filter((e) => !target || e.target === target),
      duplicates: state.duplicates,
      requests: state.requests,
    });
  });
  return control;
}
