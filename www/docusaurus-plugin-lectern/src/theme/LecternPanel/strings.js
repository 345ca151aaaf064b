// Every text the panel shows, through Docusaurus i18n: `docusaurus write-translations`
// collects these ids into i18n/<locale>/code.json, where a site translates or rewords them.
// The calls must stay literal (id and message as plain strings) for that extraction.
import { translate } from '@docusaurus/Translate';

let cached = null;

/** The panel's fixed strings (computed once per page: the locale does not change). */
export function strings() {
  cached ??= {
    title: translate({ id: 'lectern.panel.title', message: 'Ask this site', description: 'Heading of the Lectern chat panel' }),
    close: translate({ id: 'lectern.action.close', message: 'Close' }),
    closeLabel: translate({ id: 'lectern.panel.closeLabel', message: 'Close the assistant (Esc)' }),
    newConversation: translate({ id: 'lectern.action.newConversation', message: 'New conversation' }),
    persona: translate({ id: 'lectern.persona.label', message: 'Answer style', description: 'Label of the persona picker' }),
    welcome: translate({
      id: 'lectern.welcome',
      message: 'Ask a question about this site. Answers come from its pages, with numbered links to the sections they use.',
    }),
    starters: translate({ id: 'lectern.welcome.starters', message: 'Try asking', description: 'Heading above the starter questions' }),
    aboutPage: translate({ id: 'lectern.page.ask', message: 'Ask about this page', description: 'Starter button: asks what the current page covers, answered from that page' }),
    copyLink: translate({ id: 'lectern.action.copyLink', message: 'Copy link', description: 'Copies a link that opens this page and asks the same question' }),
    linkCopied: translate({ id: 'lectern.action.linkCopied', message: 'Link copied' }),
    linkCopyFailed: translate({ id: 'lectern.action.linkCopyFailed', message: 'Copy this link:', description: 'Shown with the link selected in a box when the browser refused to copy it' }),
    followUps: translate({ id: 'lectern.followUps.title', message: 'Ask next', description: 'Heading above the follow-up questions suggested under an answer' }),
    placeholder: translate({ id: 'lectern.composer.placeholder', message: 'Ask a question…' }),
    placeholderSelection: translate({ id: 'lectern.composer.placeholderSelection', message: 'Ask about the selected text…' }),
    inputLabel: translate({ id: 'lectern.composer.label', message: 'Your question' }),
    send: translate({ id: 'lectern.action.send', message: 'Send' }),
    stop: translate({ id: 'lectern.action.stop', message: 'Stop' }),
    retry: translate({ id: 'lectern.action.retry', message: 'Retry' }),
    askAgainSemantic: translate({ id: 'lectern.action.askAgainSemantic', message: 'Ask again with semantic search', description: 'Under an answer found by keywords alone while the smarter search was loading, once it is ready: asks the same question again' }),
    copy: translate({ id: 'lectern.action.copy', message: 'Copy answer' }),
    copied: translate({ id: 'lectern.action.copied', message: 'Copied' }),
    copyCode: translate({ id: 'lectern.action.copyCode', message: 'Copy code' }),
    helpful: translate({ id: 'lectern.feedback.up', message: 'Helpful' }),
    notHelpful: translate({ id: 'lectern.feedback.down', message: 'Not helpful' }),
    thanks: translate({ id: 'lectern.feedback.thanks', message: 'Thanks for the feedback' }),
    reasonTitle: translate({ id: 'lectern.feedback.reasonTitle', message: 'What was wrong?', description: 'Label of the reasons offered after "Not helpful"' }),
    reasonIncorrect: translate({ id: 'lectern.feedback.reason.incorrect', message: 'Incorrect' }),
    reasonIncomplete: translate({ id: 'lectern.feedback.reason.incomplete', message: 'Incomplete' }),
    reasonOffTopic: translate({ id: 'lectern.feedback.reason.offTopic', message: 'Not what I asked' }),
    reasonUnclear: translate({ id: 'lectern.feedback.reason.unclear', message: 'Hard to follow' }),
    you: translate({ id: 'lectern.message.you', message: 'You' }),
    assistant: translate({ id: 'lectern.message.assistant', message: 'Answer' }),
    sources: translate({ id: 'lectern.sources.title', message: 'Sources' }),
    selectionLabel: translate({ id: 'lectern.selection.label', message: 'Selected text' }),
    removeSelection: translate({ id: 'lectern.selection.remove', message: 'Stop asking about the selection' }),
    explain: translate({ id: 'lectern.selection.explain', message: 'Explain this' }),
    simplify: translate({ id: 'lectern.selection.simplify', message: 'Explain it more simply' }),
    example: translate({ id: 'lectern.selection.example', message: 'Give an example' }),
    thinking: translate({ id: 'lectern.status.thinking', message: 'Thinking…' }),
    searching: translate({ id: 'lectern.status.searching', message: 'Searching the site…' }),
    slow: translate({ id: 'lectern.status.slow', message: 'Response is taking longer than expected…' }),
    loadingIndex: translate({ id: 'lectern.status.loadingIndex', message: 'Loading the search index…' }),
    modelLoading: translate({ id: 'lectern.status.modelLoading', message: 'Keyword search works now; the language model for better answers is loading…' }),
    modelInit: translate({ id: 'lectern.status.modelInit', message: 'Preparing the language model… keyword search already works.' }),
    modelFailed: translate({ id: 'lectern.status.modelFailed', message: 'Semantic search is unavailable; answers use keyword search.' }),
    indexFailed: translate({ id: 'lectern.status.indexFailed', message: 'The search index could not be loaded.' }),
    configInvalid: translate({ id: 'lectern.status.configInvalid', message: 'This site’s chat is misconfigured, so questions cannot be answered.' }),
    tryAgain: translate({ id: 'lectern.action.tryAgain', message: 'Try again' }),
    reload: translate({ id: 'lectern.action.reload', message: 'Reload the page' }),
    details: translate({ id: 'lectern.error.details', message: 'Details', description: 'Summary of the disclosure with the technical details of a failure, for the site owner' }),
    sourceUnread: translate({ id: 'lectern.sources.unread', message: 'could not be loaded', description: 'After a source whose text could not be loaded' }),
    linksOnly: translate({ id: 'lectern.answer.links', message: 'Links to the sections', description: 'Label of an answer that lists the sections found because their text could not be loaded' }),
    refusalTitle: translate({ id: 'lectern.answer.refusal', message: 'Not in this site', description: 'Label of an answer where the site has nothing on the question' }),
    extractive: translate({ id: 'lectern.answer.extractive', message: 'Excerpts from the pages', description: 'Label of an answer made of quoted sentences, without an LLM' }),
    confidenceLabel: translate({ id: 'lectern.confidence.tooltip', message: 'How closely the site’s sections match the question' }),
    high: translate({ id: 'lectern.confidence.high', message: 'High confidence' }),
    medium: translate({ id: 'lectern.confidence.medium', message: 'Medium confidence' }),
    low: translate({ id: 'lectern.confidence.low', message: 'Low confidence: check the sources' }),
    errorTitle: translate({ id: 'lectern.error.title', message: 'The answer could not be completed.' }),
    partial: translate({ id: 'lectern.error.partial', message: 'Partial answer' }),
    disclaimer: translate({ id: 'lectern.footer.disclaimer', message: 'Answers are generated from this site and can be wrong: check the cited sections.' }),
    disclaimerExtractive: translate({ id: 'lectern.footer.disclaimerExtractive', message: 'Answers quote this site’s pages; no AI model is used.' }),
    answerDone: translate({ id: 'lectern.live.answerDone', message: 'Answer ready.' }),
    general: translate({ id: 'lectern.persona.general', message: 'General' }),
    beginner: translate({ id: 'lectern.persona.beginner', message: 'Beginner' }),
    software_engineer: translate({ id: 'lectern.persona.software_engineer', message: 'Software engineer' }),
    robotics_student: translate({ id: 'lectern.persona.robotics_student', message: 'Robotics student' }),
    ai_researcher: translate({ id: 'lectern.persona.ai_researcher', message: 'AI researcher' }),
  };
  return cached;
}

export const format = {
  modelDownload: (loaded, total) =>
    translate(
      { id: 'lectern.status.modelDownload', message: 'Keyword search works now; downloading the language model for better answers ({loaded} of {total})…' },
      { loaded, total },
    ),
  indexDownload: (loaded, total) => translate({ id: 'lectern.status.indexDownload', message: 'Loading the search index ({loaded} of {total})…' }, { loaded, total }),
  selectionTooLong: (length, max) =>
    translate({ id: 'lectern.selection.tooLong', message: 'The selection is {length} characters long; questions can quote at most {max}.' }, { length, max }),
  trim: (max) => translate({ id: 'lectern.selection.trim', message: 'Trim to the first {max} characters' }, { max }),
  selectionTooShort: (min) => translate({ id: 'lectern.selection.tooShort', message: 'Select at least {min} characters to ask about them.' }, { min }),
  questionLength: (length, max) => translate({ id: 'lectern.composer.length', message: '{length} / {max}' }, { length, max }),
  questionTooLong: (max) => translate({ id: 'lectern.composer.tooLong', message: 'Questions can be at most {max} characters long.' }, { max }),
  source: (n, title) => translate({ id: 'lectern.sources.link', message: 'Source {n}: {title}' }, { n, title }),
  aboutPage: (title) => translate({ id: 'lectern.page.question', message: 'What does the page “{title}” cover?', description: 'The question "Ask about this page" asks' }, { title }),
  queued: (seconds) =>
    translate(
      { id: 'lectern.status.queued', message: 'Sending in {seconds} s… (one question every 2 seconds)', description: 'A question waiting its turn, with the seconds left' },
      { seconds },
    ),
  stopNotice: (partial) => (partial ? translate({ id: 'lectern.status.stoppedPartial', message: 'Stopped: the answer is incomplete.' }) : translate({ id: 'lectern.status.stopped', message: 'Stopped' })),
};
