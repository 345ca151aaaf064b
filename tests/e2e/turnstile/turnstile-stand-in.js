// A local stand-in for Cloudflare Turnstile's api.js, for the e2e tests (this machine has no
// internet, so https://challenges.cloudflare.com cannot be loaded): the same explicit-
// rendering API the widget uses — window.turnstile.render(container, params), execute,
// reset, remove, getResponse — answering as Cloudflare documents for its test site keys
// (developers.cloudflare.com/turnstile/troubleshooting/testing/):
//
//   1x00000000000000000000AA  always passes: the token XXXX.DUMMY.TOKEN.XXXX
//   2x00000000000000000000AB  always blocks: the error callback
//
// Served by the protected e2e site (tests/e2e/protected.config.mjs) and named by the
// plugin's `turnstile.scriptUrl`. window.__turnstileStandIn records what was asked, and
// `expire()` expires the current tokens as Cloudflare does after 300 s.
(() => {
  const DUMMY_TOKEN = "XXXX.DUMMY.TOKEN.XXXX";
  const widgets = new Map();
  let next = 0;
  const log = { renders: 0, executes: 0, resets: 0, tokens: 0 };
  const find = (ref) => (typeof ref === "string" && widgets.has(ref) ? widgets.get(ref) : [...widgets.values()].find((w) => w.container === ref || w.container === document.querySelector(ref)));

  window.turnstile = {
    render(container, params) {
      const el = typeof container === "string" ? document.querySelector(container) : container;
      if (!el) throw new Error("turnstile.render: no container");
      const id = `cf-stand-in-${next++}`;
      widgets.set(id, { id, container: el, params, token: null, running: false });
      log.renders++;
      if (params.execution !== "execute") window.turnstile.execute(id);
      return id;
    },
    execute(ref) {
      const w = find(ref);
      if (!w || w.running || w.token) return;
      w.running = true;
      log.executes++;
      setTimeout(() => {
        w.running = false;
        if (!widgets.has(w.id)) return;
        if (w.params.sitekey === "1x00000000000000000000AA") {
          w.token = DUMMY_TOKEN;
          log.tokens++;
          w.params.callback?.(DUMMY_TOKEN);
        } else {
          w.params["error-callback"]?.("110100");
        }
      }, 50);
    },
    reset(ref) {
      const w = find(ref);
      if (!w) return;
      w.token = null;
      log.resets++;
    },
    remove(ref) {
      const w = find(ref);
      if (w) widgets.delete(w.id);
    },
    getResponse(ref) {
      return find(ref)?.token ?? undefined;
    },
    isExpired() {
      return false;
    },
  };
  window.__turnstileStandIn = {
    log,
    expire() {
      for (const w of widgets.values()) {
        if (!w.token) continue;
        w.token = null;
        w.params["expired-callback"]?.();
      }
    },
  };
})();
