// The plugin options of the protected e2e site (protected.config.mjs), shared with the tests
// that check them (limits.test.mjs, selection.test.mjs): Turnstile with Cloudflare's
// always-passing test site key and the local stand-in for Cloudflare's script, and the
// selection button renamed.
export const SELECTION_LABEL = "Ask the assistant";

export const PROTECTED_OPTIONS = {
  turnstile: { siteKey: "1x00000000000000000000AA", scriptUrl: "/turnstile-stand-in.js" },
  askAboutSelection: { label: SELECTION_LABEL },
};
