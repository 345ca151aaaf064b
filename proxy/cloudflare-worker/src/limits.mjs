// The Worker's side of the abuse limits: which ledger decides (the LIMITS Durable Object
// when bound, else the isolate's own for Turnstile verdicts alone), and what a refusal
// looks like to the page. The decisions themselves are the ledger's (ledger.mjs).

import { DAILY_QUOTA, SITE_BUDGET_EXHAUSTED, TURNSTILE_FAILED, TURNSTILE_REQUIRED, TURNSTILE_UNAVAILABLE } from "./core-contract.mjs";
import { Ledger, MemoryStorage } from "./ledger.mjs";

// The one object every isolate asks: a single ledger makes every count exact.
const LEDGER_NAME = "site";

/** The ledger behind the LIMITS binding: the same calls, as JSON over the object's fetch. */
function remoteLedger(namespace) {
  const call = async (op, args) => {
    const stub = namespace.get(namespace.idFromName(LEDGER_NAME));
    const res = await stub.fetch(`https://limits/${op}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(args),
    });
    if (!res.ok) throw new Error(`LIMITS ${op}: HTTP ${res.status}`);
    return res.json();
  };
  return { admit: (args) => call("admit", args), settle: (args) => call("settle", args) };
}

/** An isolate's own ledger, in memory (swept inline on each new day). */
export function isolateLedger() {
  const ledger = new Ledger(new MemoryStorage(), { onNewDay: (_day, at) => void ledger.sweep(at) });
  return ledger;
}

/** The ledger that decides for this request's configuration, or null when no limit is on. */
export function ledgerFor(config, ownLedger) {
  const daily = config.dailyQuota > 0 || config.dailyTokenBudget > 0;
  if (!daily && !config.turnstile) return null;
  return config.limits ? remoteLedger(config.limits) : ownLedger;
}

/** What the reader is told for each refusal (the widget may show its own text by code). */
export const REFUSALS = {
  [TURNSTILE_REQUIRED]: {
    status: 403,
    message: "This site's assistant needs to check that you are not a robot before answering. Reload the page if this persists.",
  },
  [TURNSTILE_FAILED]: {
    status: 403,
    message: "The check that you are not a robot did not pass. Reload the page and try again.",
  },
  [TURNSTILE_UNAVAILABLE]: {
    status: 502,
    message: "The check that you are not a robot could not be completed right now. Try again in a moment.",
  },
  [DAILY_QUOTA]: {
    status: 429,
    message: "You have reached today's limit of questions to this site's assistant. It resets at midnight UTC.",
  },
  [SITE_BUDGET_EXHAUSTED]: {
    status: 429,
    message: "This site's assistant has reached its limit for today. It resets at midnight UTC.",
  },
};
