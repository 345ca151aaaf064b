// The two Docusaurus packages the theme imports that this folder does not install (each
// brings a whole Docusaurus with it): the few functions the theme calls, as Docusaurus
// 3.9 declares them (@docusaurus/plugin-content-docs/client, @docusaurus/theme-common).

declare module "@docusaurus/plugin-content-docs/client" {
  export interface GlobalVersion {
    name: string;
    label: string;
    isLast: boolean;
    path: string;
  }
  export interface GlobalPluginData {
    path: string;
    versions: GlobalVersion[];
  }
  export function useAllDocsData(): Record<string, GlobalPluginData>;
  export function useActivePluginAndVersion(options?: { failfast?: boolean }):
    | { activePlugin: { pluginId: string; pluginData: GlobalPluginData }; activeVersion: GlobalVersion | undefined }
    | undefined;
  /** Throws outside DocsPreferredVersionContextProvider. */
  export function useDocsPreferredVersionByPluginId(): Record<string, GlobalVersion | null>;
}

declare module "@docusaurus/theme-common" {
  export function usePluralForm(): { selectMessage: (count: number, pluralMessages: string) => string };
}
