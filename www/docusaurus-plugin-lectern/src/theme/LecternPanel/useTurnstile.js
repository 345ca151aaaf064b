// The reader's half of the site's Cloudflare Turnstile check (the plugin's `turnstile`
// option; the proxy's half is proxy/cloudflare-worker/src/turnstile.mjs). The site's proxy
// answers only a client that has proved, once in a while, that it is a browser with a
// person behind it: the panel gets that proof — a Turnstile token — without asking the
// reader anything, before the first question. Cloudflare's script loads only when the panel
// is first used (never on a page the reader merely reads); its widget is rendered in the
// panel, invisible unless Turnstile wants the reader to click; the token is kept until a
// question takes it (a token is spent once the proxy has verified it) and renewed when it
// expires. The proxy remembers its verdict for a while, so only the first question carries a
// token, and a question refused with TURNSTILE_REQUIRED or TURNSTILE_FAILED is asked once
// more with a fresh one (useAnswerStream.js).
//
// `scriptUrl` replaces Cloudflare's script for tests and self-hosting: any script that
// defines `window.turnstile` with `render`, `execute` and `reset` as Cloudflare's does
// (tests/e2e/turnstile-stand-in.js answers with Cloudflare's documented test tokens).
import { useEffect, useMemo } from 'react';

/** How long a question waits for a token before it is sent without one (the proxy then
 * refuses it, and the reader is told). */
const TOKEN_WAIT_MS = 15000;

/** @type {Map<string, Promise<any>>} the script, loaded once per page and URL */
const scripts = new Map();

/** Loads the Turnstile script at `url` (explicit rendering) and resolves to `window.turnstile`. */
function loadScript(url) {
  let loading = scripts.get(url);
  if (loading) return loading;
  loading = new Promise((resolve, reject) => {
    const src = new URL(url, window.location.href);
    src.searchParams.set('render', 'explicit');
    const el = document.createElement('script');
    el.src = src.href;
    el.async = true;
    el.dataset.lecternTurnstile = '';
    el.onload = () => (window.turnstile ? resolve(window.turnstile) : reject(new Error(`${url} defined no window.turnstile`)));
    el.onerror = () => reject(new Error(`the Turnstile script ${url} could not be loaded`));
    document.head.append(el);
  });
  loading.catch(() => scripts.delete(url)); // a later question tries again
  scripts.set(url, loading);
  return loading;
}

/**
 * A token source for `siteKey`, rendering its widget into `container` once started:
 * {start, take, fresh} (see useTurnstile).
 * @param {string} siteKey
 * @param {string} scriptUrl
 * @param {import('react').RefObject<HTMLElement | null>} container
 */
function createSource(siteKey, scriptUrl, container) {
  /** `running`: a check is under way (its token or its error will come).
   * @type {{widget: Promise<{api: any, id: string}> | null, token: string | null, running: boolean, waiters: Array<(t: string | undefined) => void>}} */
  const s = { widget: null, token: null, running: false, waiters: [] };
  const deliver = (/** @type {string | undefined} */ token) => {
    s.running = false;
    const waiters = s.waiters.splice(0);
    if (waiters.length === 0) {
      s.token = token ?? null;
      return;
    }
    s.token = null;
    for (const w of waiters) w(token);
  };
  const start = () => {
    s.widget ??= loadScript(scriptUrl).then((api) => {
      const el = container.current;
      if (!el) throw new Error('the panel has no place for the Turnstile widget');
      const id = api.render(el, {
        sitekey: siteKey,
        // The check runs when asked to (execute), and shows itself only if the reader must click.
        execution: 'execute',
        appearance: 'interaction-only',
        callback: (/** @type {string} */ token) => deliver(token),
        'error-callback': () => {
          deliver(undefined);
          return true; // handled: no console error of Cloudflare's
        },
        'expired-callback': () => {
          // An unused token expired (after 300 s): get a new one ready.
          s.token = null;
          s.running = true;
          api.reset(id);
          api.execute(el);
        },
      });
      s.running = true;
      api.execute(el);
      return { api, id };
    });
    s.widget.catch((e) => {
      s.widget = null;
      console.warn('Lectern: the Turnstile check is unavailable:', e?.message ?? e);
      deliver(undefined);
    });
    return s.widget;
  };
  /** The token of a check: the one on its way, or of a check run now (within TOKEN_WAIT_MS). */
  const wait = () =>
    /** @type {Promise<string | undefined>} */ (
      new Promise((resolve) => {
        const done = (/** @type {string | undefined} */ token) => {
          clearTimeout(timer);
          resolve(token);
        };
        const timer = setTimeout(() => {
          s.waiters = s.waiters.filter((w) => w !== done);
          resolve(undefined);
        }, TOKEN_WAIT_MS);
        s.waiters.push(done);
        start().then(({ api, id }) => {
          if (s.running || s.token || !s.waiters.length) return;
          s.running = true;
          api.reset(id);
          api.execute(container.current);
        }, () => {});
      })
    );
  let taken = false;
  /** The token for the next question: the kept one; for the first question, the one on its
   * way; else none (the proxy remembers its verdict). */
  const take = () => {
    if (s.token) {
      const token = s.token;
      s.token = null;
      taken = true;
      return Promise.resolve(/** @type {string | undefined} */ (token));
    }
    if (taken) return Promise.resolve(undefined);
    taken = true;
    return wait();
  };
  /** A new token, after the proxy refused the last one (a kept one is not trusted either). */
  const fresh = () => {
    s.token = null;
    return wait();
  };
  return { start, take, fresh };
}

/**
 * The token source of one panel: `take()` resolves to a token for the next request (or
 * undefined when none could be had in time), `fresh()` to a new one after the proxy refused
 * the last. Null when the site has no Turnstile check.
 * @param {{siteKey: string, scriptUrl: string} | null | undefined} options
 * @param {import('react').RefObject<HTMLElement | null>} container where the widget is rendered
 * @param {boolean} open the panel is open (the script loads the first time it is)
 * @returns {{start: () => Promise<unknown>, take: () => Promise<string | undefined>, fresh: () => Promise<string | undefined>} | null}
 */
export default function useTurnstile(options, container, open) {
  const siteKey = options?.siteKey ?? null;
  const scriptUrl = options?.scriptUrl ?? null;
  const source = useMemo(() => (siteKey && scriptUrl ? createSource(siteKey, scriptUrl, container) : null), [siteKey, scriptUrl, container]);

  // The first time the panel is open: load the script and get the first token ready.
  useEffect(() => {
    if (open && source) source.start().catch(() => {});
  }, [open, source]);

  return source;
}
