/**
 * `npm run ads-stand-in -- [--meta-port 4030] [--tiktok-port 4031] [--dataset ID --meta-token T]
 *                         [--pixel CODE --tiktok-token T]`
 * Starts both stand-ins on loopback and prints their addresses (the app's META_API_BASE_URL and
 * TIKTOK_API_BASE_URL); the credentials given are accepted from the start.
 */
import { parseArgs } from "node:util";
import { adStandInControl, startMetaStandIn, startTikTokStandIn } from "./index";

const { values } = parseArgs({
  options: {
    "meta-port": { type: "string", default: "4030" },
    "tiktok-port": { type: "string", default: "4031" },
    dataset: { type: "string" },
    "meta-token": { type: "string" },
    pixel: { type: "string" },
    "tiktok-token": { type: "string" },
  },
});
const meta = await startMetaStandIn({ port: Number(values["meta-port"]) });
const tiktok = await startTikTokStandIn({ port: Number(values["tiktok-port"]) });
if (values.dataset && values["meta-token"])
  await adStandInControl(meta.url).credentials({ id: values.dataset, token: values["meta-token"] });
if (values.pixel && values["tiktok-token"])
  await adStandInControl(tiktok.url).credentials({ id: values.pixel, token: values["tiktok-token"] });
console.log(`Meta Conversions API stand-in listening on ${meta.url}`);
console.log(`TikTok Events API stand-in listening on ${tiktok.url}`);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void Promise.all([meta.close(), tiktok.close()]).then(() => process.exit(0)));
