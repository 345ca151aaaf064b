// The site's hook for Lectern's usage events (the plugin's `onEvent` option): its default
// export receives every event — a question asked, answered, refused, an error, feedback, a
// citation or search result followed — as `lectern report` reads them. This one logs each
// to the console; a site would hand them to its own analytics or logging here.

/** @param {import('lectern/chat').UsageEvent} event */
export default function onEvent(event) {
  console.info(`[lectern event] ${event.kind}`, JSON.stringify(event));
}
