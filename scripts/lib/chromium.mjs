// How every Node script here starts Debian's Chromium through playwright-core: as root, on a
// machine with no outside network (the same flags as CHROMIUM_FLAGS in common.sh, for the
// shell's wasm-bindgen test runner). $CHROMIUM overrides the binary.
export const CHROMIUM_ARGS = [
  "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
];

/** Options for `chromium.launch()`. */
export function chromiumLaunchOptions(env = process.env) {
  return { executablePath: env.CHROMIUM ?? "/usr/bin/chromium", headless: true, args: CHROMIUM_ARGS };
}
