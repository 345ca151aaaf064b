// Loaded into every page of first-seconds.mjs before the site's own scripts (an init script):
// observes the widget without changing it and keeps what it saw in window.__fs, with times
// from performance.now() (ms since the navigation started). As soon as the widget works it
// does what window.__fsPlan (set by an init script before this one) says, from inside the
// page so that no round trip to the driver delays it:
//
//   {side: "lectern"}              clicks the widget's launcher (the driver then types and asks)
//   {side: "tjs", question}        starts transformers.js in a module worker (the bench's
//                                  /page/tjs-worker.js) and embeds the question: fs.peer
//
//   hydrated      the widget's launcher works (its data-lectern-hydrated attribute)
//   opened        the widget's public "lectern:open" event
//   questions     "lectern:question" events: a question went to the chat layer
//   answers       "lectern:answer" events: an answer ended (kind, confidence, sources)
//   phases        first and last time of each retrieval worker progress phase
//                 ("lexical-ready", "hybrid-ready", ...), read from the worker's messages
//   searches      each search result the worker returned: its mode_used ("lexical" | "hybrid")
//   cited         per question (k = 1, 2, ...): when its answer first showed a citation
//                 linked to a source, and the retrieval mode of the search behind it (the
//                 first search result after the question)
//
// The worker's messages are read by wrapping the page's Worker constructor with a listener
// of its own (the widget's handlers are untouched); a worker is recognised by its messages,
// not by its file name, so this keeps working when the runtime's files change.
(() => {
  const now = () => performance.now();
  const fs = { hydrated: null, opened: null, questions: [], answers: [], errors: [], phases: {}, searches: [], cited: [], peer: null };
  window.__fs = fs;
  const plan = window.__fsPlan ?? {};

  /** What a transformers.js search must do before it can rank anything. */
  const startPeer = async () => {
    fs.peer = { start: now() };
    try {
      const { spawn } = await import("/page/rpc.js");
      const w = spawn("/page/tjs-worker.js");
      window.__peer = w;
      fs.peer.info = await w.call("init", { threads: 1, browserCache: true });
      fs.peer.pipelineReady = now();
      const [e] = await w.call("embed", { texts: [plan.question] });
      fs.peer.firstEmbedding = now();
      fs.peer.embedMs = e.ms;
      fs.peer.dims = e.vector.length;
    } catch (e) {
      fs.peer.error = String(e?.message ?? e);
    }
  };

  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(url, options) {
      super(url, options);
      this.addEventListener("message", ({ data }) => {
        // The runtime's rpc.js messages: {kind: "event", type: "progress", data} and
        // {kind: "reply", ok, result}.
        if (data?.kind === "event" && data.type === "progress" && typeof data.data?.phase === "string") {
          const p = (fs.phases[data.data.phase] ??= { first: now(), last: now(), fromCache: data.data.fromCache ?? null });
          p.last = now();
        } else if (data?.kind === "reply" && data.ok === true && data.result && typeof data.result === "object" && "mode_used" in data.result) {
          fs.searches.push({ t: now(), mode: data.result.mode_used, confidence: data.result.confidence ?? null, chunks: data.result.chunks?.length ?? null });
        }
      });
    }
  };

  addEventListener("lectern:open", () => {
    fs.opened ??= now();
  });
  addEventListener("lectern:question", () => fs.questions.push({ t: now() }));
  addEventListener("lectern:answer", ({ detail }) =>
    fs.answers.push({ t: now(), kind: detail?.kind ?? null, status: detail?.status ?? null, confidence: detail?.confidence ?? null, sources: detail?.sources?.length ?? 0 }),
  );
  addEventListener("lectern:error", ({ detail }) => fs.errors.push({ t: now(), code: detail?.code ?? null, message: detail?.message ?? null }));

  // The answer being shown is the panel's last assistant message; question k's answer has
  // shown a citation once that message holds a citation that links to its source.
  const check = () => {
    if (fs.hydrated === null && document.querySelector("[data-lectern-hydrated]")) {
      fs.hydrated = now();
      if (plan.side === "lectern") document.querySelector(".lectern-launcher")?.click();
      if (plan.side === "tjs") startPeer();
    }
    const k = fs.questions.length;
    if (k === 0 || fs.cited.some((c) => c.k === k)) return;
    const shown = document.querySelectorAll(".lectern-message--assistant");
    const last = shown[shown.length - 1];
    if (!last?.querySelector("a.lectern-cite")) return;
    const asked = fs.questions[k - 1].t;
    const search = fs.searches.find((x) => x.t >= asked);
    fs.cited.push({ k, t: now(), mode: search?.mode ?? null, confidence: search?.confidence ?? null });
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ["data-lectern-hydrated"] });
})();
