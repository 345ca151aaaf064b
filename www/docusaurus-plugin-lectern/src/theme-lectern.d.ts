// Types of the theme components this plugin provides, for sites that swizzle them
// (`docusaurus swizzle docusaurus-plugin-lectern LecternWidget --wrap`). Reference this file
// from a TypeScript site: /// <reference types="docusaurus-plugin-lectern/src/theme-lectern" />

declare module "@theme/LecternWidget" {
  import type { ReactNode } from "react";

  export interface Props {
    /** The plugin instance whose options to use (default "default"). */
    readonly pluginId?: string;
    /** Mounted by the SearchBar on a page without a docs page's widget: no floating
     * launcher, no "Ask about this" there. */
    readonly fallback?: boolean;
  }
  export default function LecternWidget(props: Props): ReactNode;
}

declare module "@theme/SearchBar" {
  import type { ReactNode } from "react";

  export interface Props {
    readonly pluginId?: string;
  }
  export default function SearchBar(props: Props): ReactNode;
}

declare module "@theme/LecternSearch" {
  import type { ReactNode } from "react";
  import type { ClientOptions } from "docusaurus-plugin-lectern";

  export interface Props {
    readonly open: boolean;
    readonly onClose: () => void;
    readonly config: ClientOptions;
  }
  export default function LecternSearch(props: Props): ReactNode;
  /** Starts the runtime (not the model) before the reader types. */
  export function preload(config: ClientOptions): void;
}

declare module "@theme/LecternSearchPage" {
  import type { ReactNode } from "react";

  export interface Props {
    readonly pluginId?: string;
  }
  export default function LecternSearchPage(props: Props): ReactNode;
}

declare module "@theme/LecternPanel" {
  import type { ReactNode } from "react";
  import type { ClientOptions } from "docusaurus-plugin-lectern";

  export interface Props {
    readonly open: boolean;
    readonly onClose: (options?: { restoreFocus?: boolean }) => void;
    readonly config: ClientOptions;
    /** A new object each time the widget is opened, asked about a selection, or asked a
     * question by the search box ("Ask AI", with the search's version scope) or by a link's
     * `?ask=` (`shared`: validated by the core even when empty). */
    readonly request: { id: number; selection: string | null; question?: string | null; scope?: null | "all" | string[]; shared?: boolean } | null;
    /** On a docs page: the welcome offers "Ask about this page". */
    readonly docsPage?: boolean;
  }
  export default function LecternPanel(props: Props): ReactNode;
}

declare module "@theme/LecternPanel/Message" {
  import type { ReactNode } from "react";

  /** chat.d.ts's Message, or the answer being streamed (status "streaming"). */
  export interface MessageLike {
    id: string;
    role: "user" | "assistant";
    content: string;
    mode?: "global" | "selected";
    selection?: string;
    /** `unread`: the source's text could not be loaded (it keeps its link). */
    sources?: Array<{ n: number; chapter_title: string; section_title: string; url: string; heading_path: string[]; unread?: boolean }>;
    confidence?: "high" | "medium" | "low" | "none";
    kind?: "llm" | "extractive" | "refusal" | "links" | "selection";
    status?: "complete" | "stopped" | "error" | "streaming";
    /** What the reader is told (message, suggestion, action) and, for Details, the rest. */
    error?: { code?: string; message: string; suggestion: string; action?: string; detail?: string; technical?: string };
    /** Said under an answer that rests on part of what was found. */
    notes?: Array<{ code: string; message: string }>;
    /** Streaming only. `queued`: waiting its turn (one question per 2 seconds), `secondsLeft` to go. */
    phase?: "queued" | "retrieving" | "generating";
    secondsLeft?: number;
    slow?: boolean;
    slowMessage?: string;
  }
  export interface Props {
    readonly message: MessageLike;
    readonly feedback?: "up" | "down" | null;
    /** A rating, or (after "down") the rating again with the reason the reader picked. */
    readonly onFeedback?: (rating: "up" | "down" | null, reason?: "incorrect" | "incomplete" | "off_topic" | "unclear") => void;
    readonly onCopy?: () => void;
    readonly onRetry?: () => void;
    readonly canRetry?: boolean;
    /** A provisional answer's question asked again, semantic search being ready; null: not offered. */
    readonly onAskAgain?: (() => void) | null;
    /** The address that asks its question again on its page ("Copy link"); null: none. */
    readonly link?: string | null;
    readonly onNavigate?: () => void;
    /** A citation of the answer was followed (in its text or its source list), with its number. */
    readonly onCite?: (n: number) => void;
    readonly texts?: { refusalSuggestion?: string; slow?: string };
    /** Offline, what needs the network is said to wait for it (`offlinePending`, the core's). */
    readonly offline?: boolean;
    readonly offlinePending?: string;
    /** The actions that wait for the network (the core's, `messages.networkActions`). */
    readonly networkActions?: readonly string[];
    /** It will be asked again once the browser is back online. */
    readonly pending?: boolean;
  }
  export default function Message(props: Props): ReactNode;
}

declare module "@theme/LecternPanel/Markdown" {
  import type { ReactNode } from "react";

  export interface Props {
    /** Markdown; raw HTML is shown as text, unsafe links as plain text, images as their alt text. */
    readonly text: string;
    /** Sources that [n] citations link to. */
    readonly sources?: Array<{ n: number; url: string; chapter_title: string; section_title: string; heading_path?: string[] }>;
    /** Called when a link to this site is followed. */
    readonly onNavigate?: () => void;
    /** Called when a citation is followed, with its number. */
    readonly onCite?: (n: number) => void;
  }
  export default function Markdown(props: Props): ReactNode;
}

/** A usage event of one kind (LecternWidget/usage.js). */
type LecternUsage<K extends import("lectern/chat").UsageEvent["kind"]> = CustomEvent<Extract<import("lectern/chat").UsageEvent, { kind: K }>>;

/** Cloudflare Turnstile's script (or a stand-in: the plugin's `turnstile.scriptUrl`), once loaded. */
interface Window {
  turnstile?: {
    render(container: HTMLElement | string, params: Record<string, unknown>): string;
    execute(container: HTMLElement | string | null): void;
    reset(widget?: string): void;
  };
}

/** The widget's DOM events (CustomEvent on window): the panel's own, and the usage events. */
interface WindowEventMap {
  "lectern:open": CustomEvent<{ selection: boolean }>;
  "lectern:close": CustomEvent<Record<string, never>>;
  "lectern:copy": CustomEvent<{ messageId: string; answer: string }>;
  "lectern:new-conversation": CustomEvent<Record<string, never>>;
  "lectern:question": LecternUsage<"question">;
  "lectern:answer": LecternUsage<"answer">;
  "lectern:refusal": LecternUsage<"refusal">;
  "lectern:error": LecternUsage<"error">;
  "lectern:feedback": LecternUsage<"feedback">;
  "lectern:citation_click": LecternUsage<"citation_click">;
  "lectern:search": LecternUsage<"search">;
  "lectern:search_click": LecternUsage<"search_click">;
}

declare module "@lectern/usage-options" {
  import type { UsageEvent } from "lectern/chat";

  /** Where the usage events go (the plugin's options, written by its src/usage-module.js). */
  export const options: { analytics: boolean; endpoint: string | null; includeText: boolean };
  /** The default export of the site's `onEvent` module, or null. */
  export const onEvent: ((event: UsageEvent) => void) | null;
}
