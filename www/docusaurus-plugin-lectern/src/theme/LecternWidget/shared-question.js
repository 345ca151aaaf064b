// A shared question: `?ask=<question>` on a docs page's address opens the panel and asks it,
// once the page has hydrated. Only the question's text is read (a link cannot choose a
// persona, an endpoint, a mode or anything else: other parameters are left to the site), and
// the parameter is taken out of the address bar at once, so a reload or a bookmark of the
// answered page does not ask again. The text is validated by the core like a typed question
// (the panel shows why one is refused) and is only ever shown as text.
import { ASK_PARAM } from '../LecternPanel/page';

/** The shared question in the address (possibly empty), taken out of it; null when none. */
export function takeSharedQuestion() {
  const url = new URL(window.location.href);
  const question = url.searchParams.get(ASK_PARAM);
  if (question === null) return null;
  url.searchParams.delete(ASK_PARAM);
  try {
    window.history.replaceState(window.history.state, '', url.href);
  } catch {
    // A sandboxed frame may refuse: the question is still asked once.
  }
  return question;
}
