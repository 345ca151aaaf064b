// Types of docusaurus-plugin-lectern. Use in docusaurus.config:
//
//   /** @type {import('docusaurus-plugin-lectern').Options} */
//   ({ endpoint: '/api/chat', starterQuestions: ['…'] })
import type { LoadContext, Plugin, OptionValidationContext } from "@docusaurus/types";

/** SPEC.md's four personas, plus "general" (no prompt modifier). */
export type PersonaOption = "general" | "beginner" | "software_engineer" | "robotics_student" | "ai_researcher";

/** What a site writes in `plugins: [['docusaurus-plugin-lectern', options]]`. All optional. */
export interface Options {
  /** Plugin instance id (Docusaurus's usual `id`). Default "default". */
  id?: string;

  // ---- generation: passed to LecternChat.create (www/lectern-js/chat.d.ts) ----
  /** URL of an OpenAI-compatible `POST /v1/chat/completions` endpoint that streams — your
   * keyless proxy. An absolute http(s) URL, or a path starting with "/" on this site. null
   * (the default): answers are extractive excerpts of the best sections, no LLM. A URL that
   * carries a user name, password or key-like query parameter is refused. */
  endpoint?: string | null;
  /** Extra, non-secret request headers. Authorization, cookies and anything named like a
   * key, token, secret or password is refused at startup. Default {}. */
  headers?: Record<string, string>;
  /** The `model` field sent to the endpoint. Default: none (the proxy chooses). */
  model?: string | null;
  /** `max_tokens` sent to the endpoint, 1–32768. Default: none. */
  maxTokens?: number | null;
  /** `temperature` sent to the endpoint, 0–2. Default: none. */
  temperature?: number | null;
  /** "Response is taking longer than expected…" after this many ms without a first token. Default 5000. */
  slowAfterMs?: number;
  /** Give up (LLM_TIMEOUT, with a retry) after this many ms without a first token, 1000–600000. Default 30000. */
  timeoutMs?: number;
  /** Sections retrieved per question, 1–10 (at most 5 are cited). Default 5. */
  k?: number;
  /** Questions about a selection use only the selection as context (nothing retrieved). Default false. */
  selectionOnly?: boolean;
  /** Origins whose URLs may be cited, e.g. ["https://docs.example.com"]. Default: the page's origin. */
  siteOrigins?: string[] | null;

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
  /** The "Ask about this" button on text selected in a docs page. Default true. */
  askAboutSelection?: boolean;

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
}

/** The chat options as the site wrote them (the browser's core fills the defaults). */
export type ChatOptionsInput = Pick<Options, "endpoint" | "headers" | "model" | "maxTokens" | "temperature" | "slowAfterMs" | "timeoutMs" | "k" | "selectionOnly" | "siteOrigins">;

/** The options after validation: the plugin's own with their defaults, the chat options
 * apart (checked by the core, which owns their defaults). */
export type PluginOptions = Required<
  Omit<Options, keyof ChatOptionsInput | "welcome" | "cli" | "bundleDir" | "runtimeDir" | "personas">
> & {
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
  personas: PersonaOption[];
  defaultPersona: PersonaOption;
  starterQuestions: string[];
  welcome: string | null;
  shortcut: boolean;
  askAboutSelection: boolean;
}

/** Summary of `lectern build` (the plugin's loaded content). */
export interface LoadedContent {
  summary: { pages: number; chunks: number; embedded: number; reused: number; total_bytes: number; [key: string]: unknown } | null;
  files: string[];
}

declare function pluginLectern(context: LoadContext, options: PluginOptions): Promise<Plugin<LoadedContent>>;
export default pluginLectern;
export declare function validateOptions(context: OptionValidationContext<Options, PluginOptions>): PluginOptions;
export declare function getSwizzleConfig(): { components: Record<string, { actions: Record<string, "safe" | "unsafe" | "forbidden">; description: string }> };
