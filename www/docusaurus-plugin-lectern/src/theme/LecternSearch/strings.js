// Every text of the search dialog, the search page and the scope control, through Docusaurus
// i18n. Where DocSearch's Docusaurus adapter has a message of the same meaning its id is
// used (theme.SearchBar.*, theme.SearchModal.*, theme.SearchPage.*), so the translations
// @docusaurus/theme-translations ships for them apply (the plugin hands them to Docusaurus);
// what is Lectern's own is under lectern.search.*. The calls stay literal for
// `docusaurus write-translations`.
import { translate } from '@docusaurus/Translate';

let cached = null;

/** The fixed strings (computed once per page: the locale does not change). */
export function searchStrings() {
  cached ??= {
    label: translate({ id: 'theme.SearchBar.label', message: 'Search', description: 'The ARIA label and placeholder for search button' }),
    placeholder: translate({ id: 'theme.SearchModal.searchBox.placeholderText', message: 'Search docs' }),
    inputLabel: translate({ id: 'theme.SearchModal.searchBox.searchInputLabel', message: 'Search' }),
    reset: translate({ id: 'theme.SearchModal.searchBox.resetButtonTitle', message: 'Clear the query' }),
    cancel: translate({ id: 'theme.SearchModal.searchBox.cancelButtonText', message: 'Cancel' }),
    askAi: translate({ id: 'theme.SearchModal.resultsScreen.askAiPlaceholder', message: 'Ask AI: ' }),
    askAiHint: translate({ id: 'lectern.search.askAiHint', message: 'An answer that cites these sections', description: 'Under the "Ask AI: <query>" row of the search box' }),
    recent: translate({ id: 'theme.SearchModal.startScreen.recentSearchesTitle', message: 'Recent' }),
    noRecent: translate({ id: 'theme.SearchModal.startScreen.noRecentSearchesText', message: 'No recent searches' }),
    removeRecent: translate({ id: 'theme.SearchModal.startScreen.removeRecentSearchButtonTitle', message: 'Remove this search from history' }),
    noResults: translate({ id: 'theme.SearchModal.noResultsScreen.noResultsText', message: 'No results found for' }),
    errorTitle: translate({ id: 'theme.SearchModal.errorScreen.titleText', message: 'Unable to fetch results' }),
    select: translate({ id: 'theme.SearchModal.footer.selectText', message: 'Select' }),
    selectKey: translate({ id: 'theme.SearchModal.footer.selectKeyAriaLabel', message: 'Enter key' }),
    navigate: translate({ id: 'theme.SearchModal.footer.navigateText', message: 'Navigate' }),
    upKey: translate({ id: 'theme.SearchModal.footer.navigateUpKeyAriaLabel', message: 'Arrow up' }),
    downKey: translate({ id: 'theme.SearchModal.footer.navigateDownKeyAriaLabel', message: 'Arrow down' }),
    close: translate({ id: 'theme.SearchModal.footer.closeText', message: 'Close' }),
    closeKey: translate({ id: 'theme.SearchModal.footer.closeKeyAriaLabel', message: 'Escape key' }),
    newTab: translate({ id: 'lectern.search.newTab', message: 'New tab', description: 'Search dialog footer: what Ctrl/Cmd+Enter does' }),
    loading: translate({ id: 'lectern.search.loading', message: 'Loading the search index…' }),
    semanticTitle: translate({ id: 'lectern.search.semanticTitle', message: 'Related by meaning', description: 'Heading of the results found by the language model rather than by their words' }),
    semanticPending: translate({ id: 'lectern.search.semanticPending', message: 'Looking for related sections…' }),
    allVersions: translate({ id: 'lectern.search.allVersions', message: 'All versions', description: 'Checkbox: search every docs version, not only the one of the page' }),
    pageTitle: translate({ id: 'theme.SearchPage.emptyResultsTitle', message: 'Search the documentation' }),
    pageInputLabel: translate({ id: 'theme.SearchPage.inputLabel', message: 'Search' }),
    pagePlaceholder: translate({ id: 'theme.SearchPage.inputPlaceholder', message: 'Type your search here' }),
    pageNoResults: translate({ id: 'theme.SearchPage.noResultsText', message: 'No results were found' }),
    pageFetching: translate({ id: 'theme.SearchPage.fetchingNewResults', message: 'Fetching new results...' }),
    versionLabel: translate({ id: 'lectern.search.versionFilter', message: 'Version', description: 'Label of the version filter of the search page' }),
  };
  return cached;
}

export const searchFormat = {
  /** "Version 1.0" (the scope of a search or a question). */
  version: (version) => translate({ id: 'lectern.search.version', message: 'Version {version}', description: 'The docs version a search or question is limited to' }, { version }),
  /** The footer link to the search page: DocSearch's words (translated by Docusaurus), and a
   * form of its own for one result. Not plural forms: a locale without a translation of them
   * would pick the English singular ("See 3 result" in Chinese). */
  seeAll: (count) =>
    count === 1
      ? translate({ id: 'lectern.search.seeOne', message: 'See 1 result', description: 'Search box footer link to the search page when there is one result' })
      : translate({ id: 'theme.SearchBar.seeAll', message: 'See all {count} results' }, { count }),
  resultsTitle: (query) => translate({ id: 'theme.SearchPage.existingResultsTitle', message: 'Search results for "{query}"' }, { query }),
  /** For usePluralForm().selectMessage. */
  documentsFound: (count) => translate({ id: 'theme.SearchPage.documentsFound.plurals', message: 'One document found|{count} documents found' }, { count }),
};
