// Types of docusaurus-plugin-lectern. Use in docusaurus.config:
//
//   /** @type {import('docusaurus-plugin-lectern').Options} */
//   ({ endpoint: '/api/chat', starterQuestions: ['…'] })
import type { LoadContext, Plugin, OptionValidationContext } from "@docusaurus/types";
import type { ChatConfig, PersonaId } from "lectern/chat";

/** A persona's id: "general" (no prompt modifier) or one of the core's. */
export type PersonaOption = PersonaId;

/** The chat options as the site wrote them: passed to LecternChat.create, which checks them
 * with the core (so does the plugin at startup); the browser's core fills the defaults. Each
 * is described by the lectern package's ChatConfig. `siteTitle` defaults to the site's
 * `title`. */
export type ChatOptionsInput = Partial<ChatConfig>;

/** What a site writes in `plugins: [['docusaurus-plugin-lectern', options]]`. All optional:
 * the plugin's own options below, and the chat options. */
export interface Options extends ChatOptionsInput {
  /** Plugin instance id (Docusaurus's usual `id`). Default "default". */
  id?: string;

  // ---- the widget ----
  /** Personas offered in the picker, in this order. Default: all five. One entry hides the picker. */
  personas?: PersonaOption[];
  /** The persona selected until the reader picks another (remembered per browser). Default "general". */
  defaultPersona?: PersonaOption;
  /** Up to 6 questions offered on the welcome screen. Default []. */
  starterQuestions?: string[];
  /** Welcome text. Default: the translatable "lectern.welcome" message (code.json). */
  welcome?: string | null;
  /** Ctrl+I / ⌘I opens the panel (and asks about the selection, if there is one). Default true. */
  shortcut?: boolean;
  /** The "Ask about this" button on text selected in a docs page: true (default), false, or
   * `{label}` to rename it (e.g. when the site's own selection menu has a button of that name). */
  askAboutSelection?: boolean | { label: string };
  /** The site's proxy checks Cloudflare Turnstile (proxy/cloudflare-worker: TURNSTILE_SECRET):
   * the widget gets a token invisibly before the first question. `siteKey`: the widget's
   * (public) site key. `scriptUrl`: a stand-in for Cloudflare's api.js, for tests and
   * self-hosting (default Cloudflare's). Default null: no check. */
  turnstile?: { siteKey: string; scriptUrl?: string } | null;
  /** Up to three follow-up questions the site answers, as buttons under each answer (default true). */
  followUpSuggestions?: boolean;
  /** How the panel is opened besides Ctrl+I and the search box's "Ask AI": a floating button
   * ("floating", default; `position` and offsets in pixels from that corner), a button in
   * the navbar beside the search box ("navbar"), or neither ("none"). */
  launcher?: LauncherType | Launcher;

  // ---- the search box ----
  /** Lectern's search box in the navbar (the theme's SearchBar). false: the theme's own
   * SearchBar (DocSearch, a local search plugin) stays. Default true. */
  searchBar?: boolean;
  /** The full-results page at <baseUrl><searchPagePath>?q=…; false: none. Default "search",
   * or false when searchBar is false. */
  searchPagePath?: string | false;
  /** ⌘K / Ctrl+K and "/" open the search box (never while typing in a field). Default true. */
  searchShortcuts?: boolean;
  /** Keep the reader's recent searches in localStorage. Default true. */
  recentSearches?: boolean;
  /** Search and answer within the docs version of the page the reader is on (elsewhere the
   * preferred or latest version), with a control to widen to all versions. Default true. */
  contextualSearch?: boolean;

  // ---- usage events (always `lectern:<kind>` CustomEvents on window) ----
  /** A module of the site, as a path from the site's folder (e.g. "./src/lectern-events.js"):
   * its default export receives every usage event. Resolved at build time. Default null. */
  onEvent?: string | null;
  /** Forward the events to Google Analytics (gtag), Plausible and Umami when the page has
   * them, as `lectern_<kind>`. Default false. */
  eventsToAnalytics?: boolean;
  /** Send the events, batched, to this URL: the proxy's /v1/events (an http(s) URL, or a path
   * on the site). Default null (not sent). */
  eventsEndpoint?: string | null;
  /** Include what the reader typed (the question, the search query) in the events. Default false. */
  eventsIncludeText?: boolean;

  // ---- build ----
  /** URL folder, under the site's baseUrl, for the index bundle (<path>/bundle/) and the
   * browser runtime (<path>/runtime/). Default "lectern". */
  path?: string;
  /** The `lectern` CLI. Default: $LECTERN_BIN, then `lectern` on $PATH, then
   * $CARGO_TARGET_DIR/release/lectern and ~/.cache/lectern/target/release/lectern. */
  cli?: string | null;
  /** Extra arguments for `lectern build`, e.g. ["--versions", "current"]. --out and --json are the plugin's. Default []. */
  buildArgs?: string[];
  /** Use this bundle folder (written by `lectern build`) instead of running the CLI. Default null. */
  bundleDir?: string | null;
  /** The browser runtime (the `lectern` npm package's files). Default: $LECTERN_RUNTIME_DIR, else
   * the installed `lectern` package. */
  runtimeDir?: string | null;
  /** Build the index under `docusaurus start` too (incremental; an edited page re-indexes). Default true. */
  indexInDev?: boolean;

  // ---- for AI agents (https://llmstxt.org), written by `lectern build` from the indexed text ----
  /** llms.txt at the site's root: title, tagline, one link per page with its first sentence, by sidebar category. Default true. */
  llmsTxt?: boolean;
  /** llms-full.txt at the site's root: the text of every page llms.txt lists, with its URL. Default true. */
  llmsFullTxt?: boolean;
  /** A Markdown twin of every docs page (its URL + ".md", or + "index.html.md" after a slash), linked from the page. Default true. */
  markdownTwins?: boolean;
  /** Which docs versions llms.txt and llms-full.txt list: each docs instance's last version, or all. Twins exist for every version. Default "last". */
  llmsVersions?: "last" | "all";
}

export type LauncherType = "floating" | "navbar" | "none";
export interface Launcher {
  type?: LauncherType;
  /** The floating button's corner. Default "bottom-right". */
  position?: "bottom-right" | "bottom-left" | "top-right" | "top-left";
  /** Pixels from that corner, 0–400. Default 20 each. */
  offsetX?: number;
  offsetY?: number;
}

/** The options after validation: the plugin's own with their defaults, the chat options
 * apart (checked by the core, which owns their defaults). */
export type PluginOptions = Required<
  Omit<Options, keyof ChatOptionsInput | "welcome" | "cli" | "bundleDir" | "runtimeDir" | "personas" | "launcher" | "onEvent" | "eventsEndpoint">
> & {
  onEvent: string | null;
  eventsEndpoint: string | null;
  launcher: Required<Launcher>;
  chat: ChatOptionsInput;
  personas: PersonaOption[] | null;
  welcome: string | null;
  cli: string | null;
  bundleDir: string | null;
  runtimeDir: string | null;
};

/** What the widget receives as the plugin's global data (`usePluginData('docusaurus-plugin-lectern')`). */
export interface ClientOptions {
  /** The bundle's URL, or null under `docusaurus start` with indexInDev false. */
  bundleUrl: string | null;
  runtimeUrl: string;
  /** The chat options the site set; LecternChat.create validates them with the core. */
  chat: ChatOptionsInput;
  /** The core's length limits on a question and a selection (characters). */
  limits: { questionMaxChars: number; selectionMinChars: number; selectionMaxChars: number };
  /** The core's texts for being offline (src/advice.rs OFFLINE): the status line, and what
   * replaces an action that needs the network — one of `networkActions` (Action::needs_network). */
  messages: { offline: string; offlinePending: string; networkActions: string[] };
  /** How a citation's link names its passage (the core's `passage_link`): the query
   * parameter, the separator of the passage's start and end, what joins their words, the
   * most letters and digits from the start to the end. */
  passageLink: { param: string; separator: string; joiner: string; maxChars: number };
  personas: PersonaOption[];
  defaultPersona: PersonaOption;
  starterQuestions: string[];
  welcome: string | null;
  shortcut: boolean;
  /** true (the translated "Ask about this"), false, or the site's label. */
  askAboutSelection: boolean | { label: string };
  /** Absent when the site has no Turnstile check. */
  turnstile?: { siteKey: string; scriptUrl: string };
  /** Absent unless false (every page carries these options). */
  followUpSuggestions?: false;
  /** How a docs page links its Markdown twin: its URL plus `fileSuffix` (or `folderSuffix`
   * when it ends with a slash), for the docs versions listed per docs plugin id; null when
   * no twins were written. */
  markdownTwins: { fileSuffix: string; folderSuffix: string; versions: Record<string, string[]> } | null;
  launcher: Required<Launcher>;
  searchBar: boolean;
  /** The search page's path (with baseUrl), or null. */
  searchPageUrl: string | null;
  searchShortcuts: boolean;
  recentSearches: boolean;
  contextualSearch: boolean;
}

/** Summary of `lectern build` (the plugin's loaded content). */
export interface LoadedContent {
  summary: { pages: number; chunks: number; embedded: number; reused: number; total_bytes: number; [key: string]: unknown } | null;
  files: string[];
  markdownTwins: ClientOptions["markdownTwins"];
}

declare function pluginLectern(context: LoadContext, options: PluginOptions): Promise<Plugin<LoadedContent>>;
export default pluginLectern;
export declare function validateOptions(context: OptionValidationContext<Options, PluginOptions>): PluginOptions;
export declare function getSwizzleConfig(): { components: Record<string, { actions: Record<string, "safe" | "unsafe" | "forbidden">; description: string }> };
