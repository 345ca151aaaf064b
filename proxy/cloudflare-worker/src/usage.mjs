// How many tokens a question costs, for the site's daily token budget (ledger.mjs): its
// worst case before it is sent (what is reserved) and what it used once its answer has
// ended (what is charged). The proxy has no tokenizer for the provider's model, so text is
// counted as one token per 4 bytes of UTF-8, the usual rule of thumb for English; when the
// provider reports `usage` (in its JSON answer, or in a stream chunk, as OpenAI does with
// `stream_options.include_usage`), its `total_tokens` is charged instead.

const BYTES_PER_TOKEN = 4;
// A non-stream answer is parsed at its end to count it; past this it is counted as is.
const MAX_JSON_BYTES = 1 << 20;

/** Bytes of `text` in UTF-8, without encoding it. */
export function utf8Length(text) {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      n += 4; // a surrogate pair: one 4-byte character
      i++;
    } else n += 3;
  }
  return n;
}

/** The estimate for text: one token per 4 bytes of UTF-8, rounded up. */
export function estimateTokens(text) {
  return Math.ceil(utf8Length(String(text ?? "")) / BYTES_PER_TOKEN);
}

function contentText(content) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === "string" ? p : typeof p?.text === "string" ? p.text : "")).join("");
  return "";
}

/** The prompt's estimate: every message's text (what the provider bills as input). */
export function promptTokens(body) {
  return body.messages.reduce((sum, m) => sum + estimateTokens(contentText(m?.content)), 0);
}

/** The most the answer may use: the max_tokens (or max_completion_tokens) sent upstream. */
export function completionCap(body) {
  return body.max_tokens ?? body.max_completion_tokens;
}

/**
 * What an answer used, given the prompt's estimate and the answer's cap: the provider's
 * total when it reported one, else the prompt's estimate plus the answer text's, the latter
 * never more than the cap (the provider stops there).
 */
export function charge({ prompt, cap, completionBytes, reportedTotal }) {
  // A total of 0 (some local servers send `usage` filled with zeros) is not believed: any
  // real question has prompt tokens.
  if (Number.isFinite(reportedTotal) && reportedTotal > 0) return reportedTotal;
  return prompt + Math.min(cap, Math.ceil(completionBytes / BYTES_PER_TOKEN));
}

/**
 * Passes a response body through unchanged, chunk by chunk as it arrives, while counting
 * the answer's text; calls `onEnd({completionBytes, reportedTotal, how})` exactly once,
 * when the body ends ("done": the body closes after the promise onEnd returns), fails
 * ("error") or the reader goes away ("cancelled").
 * `sse`: the body is an event stream (else one JSON answer).
 */
export function meterBody(body, { sse, onEnd }) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = ""; // an SSE line not yet ended, or the JSON answer so far
  let jsonBytes = 0;
  let completionBytes = 0;
  let reportedTotal;
  let ended = false;

  const readEvent = (data) => {
    if (data === "[DONE]") return;
    let chunk;
    try {
      chunk = JSON.parse(data);
    } catch {
      // A malformed event passes through (the page reports it); an answer too long or too
      // broken to parse is charged as if all of it were answer text.
      if (!sse) completionBytes = jsonBytes;
      return;
    }
    for (const choice of Array.isArray(chunk?.choices) ? chunk.choices : []) {
      const text = choice?.delta?.content ?? choice?.message?.content;
      if (typeof text === "string") completionBytes += utf8Length(text);
    }
    const total = chunk?.usage?.total_tokens;
    if (Number.isFinite(total)) reportedTotal = total;
  };
  const observe = (text) => {
    if (!sse) {
      jsonBytes += utf8Length(text);
      if (pending.length < MAX_JSON_BYTES) pending += text;
      return;
    }
    pending += text;
    const lines = pending.split(/\r?\n/);
    pending = lines.pop();
    for (const line of lines) if (line.startsWith("data:")) readEvent(line.slice(5).trim());
  };
  const end = (how) => {
    if (ended) return;
    ended = true;
    observe(decoder.decode());
    if (pending) {
      if (sse && pending.startsWith("data:")) readEvent(pending.slice(5).trim());
      else if (!sse) readEvent(pending);
    }
    return onEnd({ completionBytes, reportedTotal, how });
  };

  return new ReadableStream({
    async pull(controller) {
      let step;
      try {
        step = await reader.read();
      } catch (e) {
        end("error");
        controller.error(e);
        return;
      }
      if (step.done) {
        // The body closes once the count is told, so a reader who has seen the end of one
        // answer and asks again is judged on the settled budget.
        await end("done");
        controller.close();
        return;
      }
      observe(decoder.decode(step.value, { stream: true }));
      controller.enqueue(step.value);
    },
    cancel(reason) {
      end("cancelled");
      return reader.cancel(reason);
    },
  });
}
