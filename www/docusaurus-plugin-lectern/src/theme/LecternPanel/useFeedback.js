// The reader's ratings of answers (helpful / not helpful), kept in sessionStorage with the
// conversation, and the "lectern:feedback" event each rating sends.
import { useCallback, useState } from 'react';
import { readStorage, writeStorage } from './storage';
import { emit } from '../LecternWidget/events';

const FEEDBACK_KEY = 'lectern:feedback:v1';

/** @typedef {import('lectern/chat').Message} Message */

/**
 * Returns {feedback (message id → rating), rate(message, rating | null), reset()}.
 * @param {Message[]} messages the conversation (the rated answer's question is looked up in it)
 * @param {string | null} conversationId
 */
export default function useFeedback(messages, conversationId) {
  const [feedback, setFeedback] = useState(() => /** @type {Record<string, 'up' | 'down'>} */ (readStorage('sessionStorage', FEEDBACK_KEY, {})));

  const rate = useCallback(
    (/** @type {Message} */ message, /** @type {'up' | 'down' | null} */ rating) => {
      setFeedback((f) => {
        const next = { ...f };
        if (rating) next[message.id] = rating;
        else delete next[message.id];
        writeStorage('sessionStorage', FEEDBACK_KEY, next);
        return next;
      });
      const index = messages.findIndex((m) => m.id === message.id);
      const question = [...messages.slice(0, index)].reverse().find((m) => m.role === 'user');
      emit('feedback', {
        messageId: message.id,
        rating,
        question: question?.content ?? null,
        answer: message.content,
        sources: message.sources ?? [],
        confidence: message.confidence ?? null,
        conversationId,
      });
    },
    [messages, conversationId],
  );

  const reset = useCallback(() => {
    setFeedback({});
    writeStorage('sessionStorage', FEEDBACK_KEY, {});
  }, []);

  return { feedback, rate, reset };
}
