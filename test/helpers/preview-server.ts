// The production build served for browser tests; shared with the intake benchmark.
export * from "../../scripts/dev/lib/preview-server";
