/** The folder to pass as $LECTERN_MODEL_DIR or `lectern build --model-dir`. */
export const dir: string;
/** The int8 ONNX encoder. */
export const onnx: string;
/** The Hugging Face tokenizer. */
export const tokenizer: string;
/** sha256 sums of both, in `sha256sum` format. */
export const checksums: string;
