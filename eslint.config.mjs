// ESLint flat config for the playground (web/) and the Node.js scripts
// (tools/*.mjs, tests/**/*.mjs). Run by `python build.py lint`.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["web/dist/**", "node_modules/**", ".cache/**", ".venv/**"] },
  js.configs.recommended,
  {
    // ES modules in the page and the worker
    files: ["web/src/**/*.js"],
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: "module",
      globals: { ...globals.browser, ...globals.worker },
    },
  },
  {
    // ES modules on other pages: the notebook widgets (anywidget, shipped in the Python package)
    // and widget.js (a module script on course pages: <bytepair-widget>)
    files: ["py/bytepair/static/*.js", "web/widget.js"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: { ...globals.browser } },
  },
  {
    // classic scripts: boot.js (blocking, in <head>) and embed.js (on host pages)
    files: ["web/src/boot.js", "web/embed.js"],
    languageOptions: { ecmaVersion: 2024, sourceType: "script", globals: { ...globals.browser } },
  },
  {
    files: ["web/src/sw-register.js"],
    languageOptions: { ecmaVersion: 2024, sourceType: "script", globals: { ...globals.browser } },
  },
  {
    // the service worker's code (imported by the build's sw.js)
    files: ["web/src/sw-core.js"],
    languageOptions: { ecmaVersion: 2024, sourceType: "script", globals: { ...globals.serviceworker } },
  },
  {
    files: ["**/*.mjs"],
    languageOptions: { ecmaVersion: 2024, sourceType: "module", globals: { ...globals.node } },
  },
  {
    rules: {
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none", varsIgnorePattern: "^_" }],
    },
  },
];
