/**
 * The "ad-feed" job: a shop's outcomes waiting to be told, sent to Meta and
 * TikTok. Each outcome is decided first (sent, too late, without consent,
 * erased: decide.ts), then each platform's events go in requests of at most
 * 1,000, and each request's answer is recorded at once (the events it
 * accepted as sent, in one transaction with their timeline rows), so a worker
 * killed mid-way resends at most one request, which the platform deduplicates
 * by event_id.
 *
 * A refused request (Meta refuses a whole batch for one bad event) is split in
 * halves until the refused events stand alone, each recorded with the
 * platform's message. A refused token stops that platform until the merchant
 * saves a new one (Settings says so); its outcomes wait, and become too late
 * after 7 days. A rate limit reschedules the job after the stated wait without
 * counting an attempt; a failure for now is retried by the queue with backoff.
 */
import type { Db } from "../db.server";
import {
  AdAuthError,
  AdRateLimitError,
  AdRefusedError,
  eventNameFor,
  META_MAX_EVENTS,
  TIKTOK_MAX_EVENTS,
  toMetaEvent,
  toTikTokEvent,
  withoutSecret,
  type AdPlatform,
  type Conversion,
  type FeedStage,
  type MetaClient,
  type TikTokClient,
} from "../ad-platforms";
import type { SecretBox } from "../crypto/secret-box.server";
import { asBool, asDate, asString, sqlDatabaseOf, statement, type Row, type Sql } from "../db/sql";
import { adFeedJobFor } from "../models/job-kinds";
import { adFeedRefusedText, adFeedSentText } from "../models/order-texts";
import { addTimelineRows, timelineRow, type TimelineRow } from "../models/timeline.server";
import { RetryLaterError } from "../queue/errors";
import { wakeJobs } from "../queue/jobs.server";
import type { ClaimedJob } from "../queue/types";
import { decide, type ConsentSignal, type Decision } from "./decide";
import { storedNaming, storedStage } from "./feed-settings";
import { orderFacts, parseOrderSnapshot, type OrderFacts } from "./order-facts";

export interface AdFeedDeps {
  db: Db;
  now: () => Date;
  secretBox: SecretBox;
  meta: MetaClient;
  tiktok: TikTokClient;
  log?: (line: string) => void;
}

/** Outcomes read per round; a job runs a few rounds, then wakes itself for the rest. */
const ROUND_SIZE = 2000;
const ROUNDS_PER_RUN = 5;

const FEED = statement(
  `SELECT "enabled", "stage", "naming", "withoutConsentSignal", "metaDatasetId", "metaTokenCipher", "metaRefusedAt",
          "tiktokPixelCode", "tiktokTokenCipher", "tiktokRefusedAt"
     FROM "AdFeed" WHERE "shop" = ?`,
);
const PENDING = statement(
  `SELECT e."id", e."linkId", e."stage", e."platform", e."occurredAt",
          l."orderId", l."orderName", l."payload", l."phone", l."totalClient",
          c."checkoutToken", c."marketing", c."fbp", c."fbc", c."ttclid", c."ttp", c."pageUrl"
     FROM "AdEvent" e
     LEFT JOIN "OrderLink" l ON l."id" = e."linkId" AND l."shop" = e."shop"
     LEFT JOIN "AdClick" c ON c."shop" = e."shop" AND c."orderId" = l."orderId"
    WHERE e."shop" = ? AND e."state" = 'pending' AND e."platform" = ANY(?)
    ORDER BY e."occurredAt", e."id"
    LIMIT ?`,
);
const SETTLE = statement(
  `UPDATE "AdEvent" SET "state" = ?, "detail" = ? WHERE "shop" = ? AND "id" = ANY(?) AND "state" = 'pending'`,
);
const SENT = statement(
  `UPDATE "AdEvent" SET "state" = 'sent', "sentAt" = ?, "customerDataOnly" = ("id" = ANY(?))
    WHERE "shop" = ? AND "id" = ANY(?) AND "state" = 'pending'`,
);
const TOKEN_REFUSED = {
  meta: statement(`UPDATE "AdFeed" SET "metaRefusedAt" = ?, "updatedAt" = ? WHERE "shop" = ?`),
  tiktok: statement(`UPDATE "AdFeed" SET "tiktokRefusedAt" = ?, "updatedAt" = ? WHERE "shop" = ?`),
};

interface Pending {
  id: string;
  linkId: string;
  stage: FeedStage;
  platform: AdPlatform;
  occurredAt: Date;
  orderId: string | null;
  orderName: string;
  payload: string | null;
  phone: string | null;
  totalClient: string | null;
  signal: ConsentSignal | null;
}

function pendingOf(row: Row): Pending {
  const marketing = row.marketing;
  return {
    id: String(row.id),
    linkId: String(row.linkId),
    stage: String(row.stage) as FeedStage,
    platform: String(row.platform) as AdPlatform,
    occurredAt: asDate(row.occurredAt)!,
    orderId: asString(row.orderId),
    orderName: asString(row.orderName) ?? "",
    payload: asString(row.payload),
    phone: asString(row.phone),
    totalClient: asString(row.totalClient),
    signal:
      marketing === null || marketing === undefined
        ? null
        : {
            checkoutToken: asString(row.checkoutToken),
            marketing: asBool(marketing),
            clicks: {
              fbp: asString(row.fbp),
              fbc: asString(row.fbc),
              ttclid: asString(row.ttclid),
              ttp: asString(row.ttp),
            },
            pageUrl: asString(row.pageUrl),
          },
  };
}

interface Target {
  platform: AdPlatform;
  /** Dataset id or pixel code. */
  id: string;
  token: string;
}

interface ToSend {
  pending: Pending;
  conversion: Conversion;
  customerDataOnly: boolean;
}

/** Why a platform's sending stopped this run: the queue's answer, given once every platform had its turn. */
type Stop =
  | { kind: "later"; delayMs: number; reason: string }
  | { kind: "backoff"; error: unknown }
  /** The token was refused: nothing more until a new one is saved (no retry). */
  | { kind: "token_refused" };

export async function runAdFeedJob(deps: AdFeedDeps, job: ClaimedJob): Promise<void> {
  const shop = job.shop;
  if (!shop) return;
  const database = sqlDatabaseOf(deps.db);
  const [feed] = await database.all(FEED, [shop]);
  if (!feed || !asBool(feed.enabled)) return;
  const targets = targetsOf(deps, shop, feed);
  if (targets.length === 0) return;
  const settings = {
    stage: storedStage(feed.stage),
    naming: storedNaming(feed.naming),
    withoutConsentSignal: asBool(feed.withoutConsentSignal),
  };
  const stops: Stop[] = [];
  let live = targets;
  let more = false;
  for (let round = 0; round < ROUNDS_PER_RUN && live.length > 0; round++) {
    const rows = (await database.all(PENDING, [shop, live.map((t) => t.platform), ROUND_SIZE])).map(pendingOf);
    more = rows.length === ROUND_SIZE;
    if (rows.length === 0) break;
    const nowMs = deps.now().getTime();
    const facts = new Map<string, OrderFacts | null>();
    const factsOf = (p: Pending) => {
      if (!facts.has(p.linkId)) {
        const order = p.payload ? parseOrderSnapshot(p.payload) : null;
        facts.set(p.linkId, order ? orderFacts(order, p.phone) : null);
      }
      return facts.get(p.linkId)!;
    };
    const settled = new Map<Exclude<Decision["kind"], "send">, string[]>();
    const sends = new Map<AdPlatform, ToSend[]>();
    for (const pending of rows) {
      const decision = decide(
        {
          orderId: pending.orderId ?? pending.linkId,
          orderName: pending.orderName,
          stage: pending.stage,
          occurredAt: pending.occurredAt,
          value: Number(pending.totalClient ?? 0) || 0,
        },
        pending.orderId ? factsOf(pending) : null,
        pending.signal,
        { withoutConsentSignal: settings.withoutConsentSignal, nowMs, storeUrl: `https://${shop}/` },
      );
      if (decision.kind === "send") {
        const list = sends.get(pending.platform) ?? [];
        list.push({ pending, conversion: decision.conversion, customerDataOnly: decision.fromCustomerDataOnly });
        sends.set(pending.platform, list);
      } else settled.set(decision.kind, [...(settled.get(decision.kind) ?? []), pending.id]);
    }
    for (const [state, ids] of settled) await database.run(SETTLE, [state, null, shop, ids]);
    const stillLive: Target[] = [];
    for (const target of live) {
      const stop = await sendAll(deps, shop, target, settings, sends.get(target.platform) ?? []);
      if (stop) stops.push(stop);
      else stillLive.push(target);
    }
    live = stillLive;
    if (!more) break;
  }
  // More waiting than a run takes: run again, after the other shops had their turn.
  if (more && live.length > 0) await wakeJobs(database, [adFeedJobFor(shop)]);
  const later = stops.filter((s): s is Extract<Stop, { kind: "later" }> => s.kind === "later");
  const failed = stops.find((s): s is Extract<Stop, { kind: "backoff" }> => s.kind === "backoff");
  if (failed) throw failed.error;
  if (later.length > 0) {
    const longest = later.reduce((a, b) => (b.delayMs > a.delayMs ? b : a));
    throw new RetryLaterError(longest.delayMs, { countAttempt: false, reason: longest.reason });
  }
}

/** The platforms the shop connected and whose token was not refused since, with the token opened. */
function targetsOf(deps: AdFeedDeps, shop: string, feed: Row): Target[] {
  const targets: Target[] = [];
  const open = (cipher: unknown, purpose: "meta-access-token" | "tiktok-access-token") => {
    try {
      return typeof cipher === "string" ? deps.secretBox.open(cipher, { shop, purpose }) : null;
    } catch {
      // Sealed under another ENCRYPTION_KEY: as if none, until the merchant saves the token again.
      deps.log?.(`ad feed ${shop}: the saved ${purpose} cannot be opened`);
      return null;
    }
  };
  const metaToken = feed.metaRefusedAt ? null : open(feed.metaTokenCipher, "meta-access-token");
  if (metaToken && feed.metaDatasetId)
    targets.push({ platform: "meta", id: String(feed.metaDatasetId), token: metaToken });
  const tiktokToken = feed.tiktokRefusedAt ? null : open(feed.tiktokTokenCipher, "tiktok-access-token");
  if (tiktokToken && feed.tiktokPixelCode)
    targets.push({ platform: "tiktok", id: String(feed.tiktokPixelCode), token: tiktokToken });
  return targets;
}

const MAX_EVENTS: Record<AdPlatform, number> = { meta: META_MAX_EVENTS, tiktok: TIKTOK_MAX_EVENTS };
const PLATFORM_NAME: Record<AdPlatform, string> = { meta: "Meta", tiktok: "TikTok" };

/** A platform's events, request by request; null when all were answered, else why it stopped. */
async function sendAll(
  deps: AdFeedDeps,
  shop: string,
  target: Target,
  settings: { stage: ReturnType<typeof storedStage>; naming: ReturnType<typeof storedNaming> },
  items: ToSend[],
): Promise<Stop | null> {
  const name = (item: ToSend) => eventNameFor(target.platform, item.pending.stage, settings.stage, settings.naming);
  const send = (batch: ToSend[]) =>
    target.platform === "meta"
      ? deps.meta.sendEvents(
          target.id,
          target.token,
          batch.map((i) => toMetaEvent(i.conversion, name(i))),
        )
      : deps.tiktok.sendEvents(
          target.id,
          target.token,
          batch.map((i) => toTikTokEvent(i.conversion, name(i))),
        );
  const database = sqlDatabaseOf(deps.db);

  /** Sends a batch; a refused one is split until its refused events stand alone. */
  const attempt = async (batch: ToSend[]): Promise<void> => {
    try {
      await send(batch);
    } catch (error) {
      if (!(error instanceof AdRefusedError)) throw error;
      if (batch.length > 1) {
        const half = Math.ceil(batch.length / 2);
        await attempt(batch.slice(0, half));
        await attempt(batch.slice(half));
        return;
      }
      await database.transaction(async (tx) => {
        await tx.run(SETTLE, ["refused", error.message.slice(0, 1000), shop, [batch[0].pending.id]]);
        await addTimelineRows(tx, [refusedRow(shop, batch[0], target.platform, name(batch[0]))]);
      });
      return;
    }
    await recordSent(database, shop, batch, target.platform, name, deps.now());
  };

  for (let i = 0; i < items.length; i += MAX_EVENTS[target.platform]) {
    try {
      await attempt(items.slice(i, i + MAX_EVENTS[target.platform]));
    } catch (error) {
      if (error instanceof AdAuthError) {
        const now = deps.now();
        await database.run(TOKEN_REFUSED[target.platform], [now, now, shop]);
        deps.log?.(
          `ad feed ${shop}: ${PLATFORM_NAME[target.platform]} refused the access token: ${withoutSecret(error.message, target.token)}`,
        );
        return { kind: "token_refused" };
      }
      if (error instanceof AdRateLimitError)
        return { kind: "later", delayMs: error.retryAfterMs, reason: `${PLATFORM_NAME[target.platform]}'s rate limit` };
      return { kind: "backoff", error };
    }
  }
  return null;
}

async function recordSent(
  database: ReturnType<typeof sqlDatabaseOf>,
  shop: string,
  batch: ToSend[],
  platform: AdPlatform,
  name: (item: ToSend) => string,
  at: Date,
): Promise<void> {
  const ids = batch.map((i) => i.pending.id);
  const dataOnly = batch.filter((i) => i.customerDataOnly).map((i) => i.pending.id);
  await database.transaction(async (tx: Sql) => {
    await tx.run(SENT, [at, dataOnly, shop, ids]);
    await addTimelineRows(
      tx,
      batch.map((item) =>
        timelineRow(shop, item.pending.linkId, {
          kind: "ad_feed",
          text: adFeedSentText(platform, name(item)),
          data: { platform, stage: item.pending.stage, eventId: item.conversion.eventId },
          at,
        }),
      ),
    );
  });
}

function refusedRow(shop: string, item: ToSend, platform: AdPlatform, eventName: string): TimelineRow {
  return timelineRow(shop, item.pending.linkId, {
    kind: "ad_feed",
    text: adFeedRefusedText(platform, eventName),
    data: { platform, stage: item.pending.stage, eventId: item.conversion.eventId },
  });
}
