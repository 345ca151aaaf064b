// A provisional answer: found by keywords alone, with weak evidence, while semantic search was
// still loading (the core decides and marks it with the KEYWORD_ONLY note). Its note says a
// better answer is coming; it is not a fault, so it offers no Retry and does not wait for the
// network. Once semantic search is ready, the panel offers to ask its question again.

/** The note the core puts under a provisional answer (chat.d.ts AnswerNoteCode). */
export const KEYWORD_ONLY = 'KEYWORD_ONLY';

/** Whether `message` (an answer) is provisional. */
export function isProvisional(/** @type {{notes?: {code: string}[]} | undefined} */ message) {
  return Boolean(message?.notes?.some((note) => note.code === KEYWORD_ONLY));
}

/** Whether `message` carries a note of a fault (part of the index or of its sections was
 * missing): asking again may complete it. */
export function hasFaultNotes(/** @type {{notes?: {code: string}[]} | undefined} */ message) {
  return Boolean(message?.notes?.some((note) => note.code !== KEYWORD_ONLY));
}
