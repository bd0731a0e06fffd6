import type { ESLint } from "eslint";

export const FLOORS: string[][];
export const ROUTE_TARGETS: { page: string[]; webhook: string[] };
export function roomOf(path: string): { room: string; floor: number } | null;
declare const plugin: ESLint.Plugin;
export default plugin;
