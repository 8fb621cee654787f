#!/usr/bin/env node
// gpt-tokenizer's encodeChat (npm gpt-tokenizer 4.0.0) as a reference for
// bytepair.chat.openai. Reads JSON from stdin: [{model, messages, options?}, ...];
// writes JSON to stdout: [ids | {error: message}, ...] in the same order.
//
//   node tests/reference/gpt_tokenizer_chat.mjs NODE_MODULES_DIR < cases.json
//
// NODE_MODULES_DIR: the node_modules holding gpt-tokenizer (the repository's,
// or BYTEPAIR_NODE_MODULES).

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const nodeModules = path.resolve(process.argv[2] || "node_modules");
const cases = JSON.parse(fs.readFileSync(0, "utf8"));
const apis = new Map();
const out = [];
for (const { model, messages, options } of cases) {
  if (!apis.has(model)) {
    const file = path.join(nodeModules, "gpt-tokenizer", "esm", "model", `${model}.js`);
    apis.set(model, await import(pathToFileURL(file).href));
  }
  try {
    out.push(apis.get(model).encodeChat(messages, undefined, options));
  } catch (e) {
    out.push({ error: String(e && e.message) });
  }
}
process.stdout.write(JSON.stringify(out));
