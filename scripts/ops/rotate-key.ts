/**
 * `npm run rotate-key`: re-seals every stored secret (seller API keys, events
 * secrets, Shopify session tokens) under ENCRYPTION_KEY, opening them with ENCRYPTION_KEY_PREVIOUS or
 * ENCRYPTION_KEY. Rotation: set ENCRYPTION_KEY_PREVIOUS to the old key and
 * ENCRYPTION_KEY to a new one (the app accepts both meanwhile), run this, then
 * drop ENCRYPTION_KEY_PREVIOUS. Also upgrades secrets sealed in the older format.
 * Prints counts only, never a secret.
 */
// First: production defaults (app/env.server.ts: NODE_ENV, .env); the app's log lines are JSON, named for the
// command. What the command tells the operator (counts, usage) stays plain text on stdout and stderr.
import { setProcessRole } from "../../app/runtime/logger.server";
import { SecretBoxError } from "../../app/crypto/secret-box.server";
import { KeyRotationError, rotateStoredSecrets } from "../../app/models/secret-rotation.server";
import { EnvError, secretBoxFromEnv } from "../../app/env.server";

setProcessRole("rotate-key");

async function main(): Promise<number> {
  let box;
  try {
    box = secretBoxFromEnv();
  } catch (error) {
    if (error instanceof EnvError || error instanceof SecretBoxError) {
      console.error(`rotate-key: ${error.message} (ENCRYPTION_KEY / ENCRYPTION_KEY_PREVIOUS)`);
      return 2;
    }
    throw error;
  }
  // Imported after the checks so a bad key fails before the database is opened.
  const { default: prisma } = await import("../../app/db.server");
  try {
    const report = await rotateStoredSecrets(prisma, box);
    console.info(
      `rotate-key: ${report.checked} secret(s) checked, ${report.resealed} re-sealed, ${report.sealed} sealed (were in clear), ${report.current} already current`,
    );
    return 0;
  } catch (error) {
    if (error instanceof KeyRotationError) {
      console.error(`rotate-key: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await prisma.$disconnect();
  }
}

process.exitCode = await main();
