// The reader's ratings of answers (helpful / not helpful), kept in sessionStorage with the
// conversation, and the usage event each rating sends (a `feedback` UsageEvent, usage.js).
import { useCallback, useState } from 'react';
import { readStorage, writeStorage } from './storage';
import { recordUsage } from '../LecternWidget/usage';

const FEEDBACK_KEY = 'lectern:feedback:v1';

/** @typedef {import('lectern/chat').Message} Message */

/** The panel's ratings as the usage events name them. */
const RATINGS = /** @type {const} */ ({ up: 'helpful', down: 'not_helpful' });

/**
 * Returns {feedback (message id → rating), rate(message, rating | null, reason?), reset()}:
 * each rating is a feedback event, and so is a reason picked after it (the rating again,
 * with the reason: the later event of an answer counts).
 * @param {Message[]} messages the conversation (the rated answer's question is looked up in it)
 * @param {string | undefined} conversationId
 */
export default function useFeedback(messages, conversationId) {
  const [feedback, setFeedback] = useState(() => /** @type {Record<string, 'up' | 'down'>} */ (readStorage('sessionStorage', FEEDBACK_KEY, {})));

  const rate = useCallback(
    (/** @type {Message} */ message, /** @type {'up' | 'down' | null} */ rating, /** @type {string | undefined} */ reason = undefined) => {
      setFeedback((f) => {
        const next = { ...f };
        if (rating) next[message.id] = rating;
        else delete next[message.id];
        writeStorage('sessionStorage', FEEDBACK_KEY, next);
        return next;
      });
      const index = messages.findIndex((m) => m.id === message.id);
      const question = [...messages.slice(0, index)].reverse().find((m) => m.role === 'user');
      recordUsage({ kind: 'feedback', conversationId, messageId: message.id, rating: rating ? RATINGS[rating] : null, reason, question: question?.content });
    },
    [messages, conversationId],
  );

  const reset = useCallback(() => {
    setFeedback({});
    writeStorage('sessionStorage', FEEDBACK_KEY, {});
  }, []);

  return { feedback, rate, reset };
}
