// @lectern/model-all-minilm-l6-v2: the files `lectern build` embeds with (the compact
// model file + tokenizer); checksums.sha256 beside them is checked by the CLI each time it
// loads them.
"use strict";

const path = require("node:path");

module.exports = {
  /** The folder to pass as $LECTERN_MODEL_DIR or `--model-dir`. */
  dir: __dirname,
  model: path.join(__dirname, "model-compact.lcm"),
  tokenizer: path.join(__dirname, "tokenizer.json"),
  checksums: path.join(__dirname, "checksums.sha256"),
};
