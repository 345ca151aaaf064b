/** The folder to pass as $LECTERN_MODEL_DIR or `lectern build --model-dir`. */
export const dir: string;
/** The encoder in Lectern's compact format (4-bit word table, int8 layers; decoded by Lectern to ONNX). */
export const model: string;
/** The Hugging Face tokenizer. */
export const tokenizer: string;
/** sha256 sums of both, in `sha256sum` format. */
export const checksums: string;
