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
     * question by the search box ("Ask AI", with the search's version scope). */
    readonly request: { id: number; selection: string | null; question?: string | null; scope?: null | "all" | string[] } | null;
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
    readonly onFeedback?: (rating: "up" | "down" | null) => void;
    readonly onCopy?: () => void;
    readonly onRetry?: () => void;
    readonly canRetry?: boolean;
    readonly onNavigate?: () => void;
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
  }
  export default function Markdown(props: Props): ReactNode;
}

/** Cloudflare Turnstile's script (or a stand-in: the plugin's `turnstile.scriptUrl`), once loaded. */
interface Window {
  turnstile?: {
    render(container: HTMLElement | string, params: Record<string, unknown>): string;
    execute(container: HTMLElement | string | null): void;
    reset(widget?: string): void;
  };
}

/** The widget's DOM events (CustomEvent on window). */
interface WindowEventMap {
  "lectern:open": CustomEvent<{ selection: boolean }>;
  "lectern:close": CustomEvent<Record<string, never>>;
  "lectern:question": CustomEvent<{ question: string; mode: "global" | "selected"; selection: string | null; persona: string }>;
  "lectern:answer": CustomEvent<{ messageId: string; question: string | null; answer: string; sources: unknown[]; confidence: string; kind: string; status: string; mode: string }>;
  "lectern:feedback": CustomEvent<{ messageId: string; rating: "up" | "down" | null; question: string | null; answer: string; sources: unknown[]; confidence: string | null; conversationId: string | null }>;
  "lectern:copy": CustomEvent<{ messageId: string; answer: string }>;
  "lectern:new-conversation": CustomEvent<Record<string, never>>;
  "lectern:error": CustomEvent<{ code: string; message: string; detail: string | null }>;
}
