import type { ESLint } from "eslint";

export const DOOR: string;
export function sqlWritesLinkState(text: string): boolean;
declare const plugin: ESLint.Plugin;
export default plugin;
