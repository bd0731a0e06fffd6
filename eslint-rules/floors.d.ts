import type { ESLint } from "eslint";

export const FLOORS: string[][];
export function roomOf(path: string): { room: string; floor: number } | null;
declare const plugin: ESLint.Plugin;
export default plugin;
