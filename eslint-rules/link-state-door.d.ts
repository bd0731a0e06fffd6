import type { ESLint } from "eslint";

export const DOOR: string;
export function sqlWritesLinkState(text: string): boolean;
/** Whether SQL text writes a link's reason: "reason" or "reasonText" in an update's SET. */
export function sqlWritesLinkReason(text: string): boolean;
declare const plugin: ESLint.Plugin;
export default plugin;
