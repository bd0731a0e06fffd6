import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";
import floors from "./eslint-rules/floors.js";
import linkStateDoor from "./eslint-rules/link-state-door.js";

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "node_modules/**",
      ".cache/**",
      "public/build/**",
      "extensions/**/dist/**",
      "extensions/**/node_modules/**",
      "test-results/**",
      ".stryker-tmp/**",
      "reports/**",
      "**/*.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/no-explicit-any": "error",
      "no-console": "off",
    },
  },
  {
    files: ["app/**/*.{ts,tsx}", "scripts/**/*.ts", "server.ts", "worker.ts"],
    plugins: { house: { rules: { ...floors.rules, ...linkStateDoor.rules } } },
    rules: { "house/floors": "error", "house/link-state-door": "error" },
  },
  {
    // What production starts and operators run is built from app/ and scripts/lib/ only: the developer
    // tools (benchmarks, the demo, the test harness) are not deployed.
    files: ["scripts/ops/**/*.ts", "scripts/lib/**/*.ts", "scripts/build/**/*.ts", "server.ts", "worker.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "(^|/)dev/",
              message: "production and operator code imports app/ and scripts/lib/, never the developer tools",
            },
          ],
        },
      ],
      "no-restricted-syntax": [
        "error",
        {
          selector: "ImportExpression[source.value=/(^|\\/)dev\\//]",
          message: "production and operator code imports app/ and scripts/lib/, never the developer tools",
        },
      ],
    },
  },
);
