// The LIMITS Durable Object: the ledger (ledger.mjs) on Durable Object storage, one instance
// per deployment (the proxy always asks for the object named "site"), so the daily quota,
// the site's token budget and the Turnstile verdicts hold exactly across all of
// Cloudflare's isolates and locations. Only the Worker can reach it (a Durable Object has no
// public URL); it speaks JSON over `fetch`, which needs no runtime-only import, so the
// same class runs under `node --test`.
//
//   POST /admit   {client, day, at, turnstile, quota, budget, reserve} -> {admitted, code?}
//   POST /settle  {client, day, reserved, used, refundQuestion}       -> {settled}
// Earlier days' counts and expired verdicts are deleted by an alarm set on each new day.

import { Ledger } from "./ledger.mjs";

export class ProxyLimits {
  constructor(state) {
    this.state = state;
    this.ledger = new Ledger(state.storage, {
      onNewDay: () => {
        state.storage.setAlarm(Date.now() + 1000);
      },
    });
  }

  async fetch(request) {
    if (request.method !== "POST") return new Response("POST only", { status: 405 });
    let args;
    try {
      args = await request.json();
    } catch {
      return new Response("not JSON", { status: 400 });
    }
    const op = new URL(request.url).pathname;
    if (op === "/admit") return Response.json(await this.ledger.admit(args));
    if (op === "/settle") return Response.json(await this.ledger.settle(args));
    return new Response("unknown operation", { status: 404 });
  }

  async alarm() {
    if (await this.ledger.sweep(Date.now())) await this.state.storage.setAlarm(Date.now() + 1000);
  }
}
