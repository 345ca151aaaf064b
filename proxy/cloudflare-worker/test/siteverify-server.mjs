// A local stand-in for Cloudflare Turnstile's siteverify API, for the proxy's tests and its
// load script: this machine has no internet, so the real
// https://challenges.cloudflare.com/turnstile/v0/siteverify cannot be reached. It answers as
// siteverify documents for its test secret keys
// (developers.cloudflare.com/turnstile/troubleshooting/testing/):
//
//   1x0000000000000000000000000000000AA  passes, for the dummy token XXXX.DUMMY.TOKEN.XXXX
//                                        only (what the test sitekeys produce);
//                                        any other token: invalid-input-response
//   2x0000000000000000000000000000000AA  always fails: invalid-input-response
//   3x0000000000000000000000000000000AA  always fails: timeout-or-duplicate (token spent)
//   no secret                            missing-input-secret
//   any other secret                     invalid-input-secret
//   no token                             missing-input-response
//
// The proxy points at it with TURNSTILE_VERIFY_URL. With internet, the same test secrets
// work against the real siteverify (set TURNSTILE_VERIFY_URL back to it). The body may be
// form-encoded or JSON, as siteverify accepts both; every call is logged for `calls()`.
//
//   const sv = await startSiteverify();  sv.url;  sv.calls();  sv.reset();  await sv.close();

import http from "node:http";

export const DUMMY_TOKEN = "XXXX.DUMMY.TOKEN.XXXX";
export const PASS_SECRET = "1x0000000000000000000000000000000AA";
export const FAIL_SECRET = "2x0000000000000000000000000000000AA";
export const SPENT_SECRET = "3x0000000000000000000000000000000AA";

/** siteverify's answer for one request's fields, as documented for the test secrets. */
export function siteverifyAnswer({ secret, response }) {
  const no = (code) => ({ success: false, "error-codes": [code] });
  if (!secret) return no("missing-input-secret");
  if (![PASS_SECRET, FAIL_SECRET, SPENT_SECRET].includes(secret)) return no("invalid-input-secret");
  if (!response) return no("missing-input-response");
  if (secret === SPENT_SECRET) return no("timeout-or-duplicate");
  if (secret === FAIL_SECRET || response !== DUMMY_TOKEN) return no("invalid-input-response");
  return {
    success: true,
    challenge_ts: new Date().toISOString(),
    hostname: "localhost",
    "error-codes": [],
    action: "test",
    cdata: "test-data",
  };
}

export async function startSiteverify({ port = 0, host = "127.0.0.1" } = {}) {
  let log = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let fields = {};
      if (/json/i.test(req.headers["content-type"] ?? "")) {
        try {
          fields = JSON.parse(text) ?? {};
        } catch {}
      } else {
        fields = Object.fromEntries(new URLSearchParams(text));
      }
      if (req.method !== "POST" || !req.url.startsWith("/turnstile/v0/siteverify")) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ success: false, "error-codes": ["bad-request"] }));
        return;
      }
      const answer = siteverifyAnswer(fields);
      log.push({ secret: fields.secret, response: fields.response, remoteip: fields.remoteip, success: answer.success });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise((resolve) => server.listen(port, host, resolve));
  const base = `http://${host}:${server.address().port}`;
  return {
    url: `${base}/turnstile/v0/siteverify`,
    calls: () => log.slice(),
    reset: () => {
      log = [];
    },
    close: () => new Promise((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    }),
  };
}
