// The widget's DOM events, for a site's own analytics or logging. Each is a CustomEvent on
// `window` named "lectern:<name>" whose `detail` is a plain object:
//
//   window.addEventListener("lectern:feedback", (e) => console.log(e.detail.rating));
//
// open, close, question, answer, feedback, copy, new-conversation, error (see README).
// A listener that throws is reported by the browser and does not stop the widget.

export function emit(name, detail = {}) {
  if (typeof window === "undefined") return;
  window.dispatchEvent(new CustomEvent(`lectern:${name}`, { detail }));
}
