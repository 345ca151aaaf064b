//! The conversation and generation rules of docs/DESIGN.md §2–3, with no I/O: what is stored, what
//! the LLM is sent, how its stream is read, when to refuse and what to answer without an LLM.
//! The wasm facade supplies the clock, randomness, storage and network.

mod config;
mod context;
mod conversation;
mod degraded;
mod error;
mod events;
mod extractive;
mod ids;
mod marker;
mod outcome;
mod page;
mod passage;
mod persona;
mod plan;
mod prompt;
mod rules;
mod site_name;
mod sources;
mod stream;
mod turn;

pub use config::{
    did_you_mean, ChatConfig, DEFAULT_K, DEFAULT_SLOW_AFTER_MS, DEFAULT_STORAGE_KEY, DEFAULT_TIMEOUT_MS,
    RETRY_AFTER_HEADER, TURNSTILE_HEADER,
};
pub use context::{pack_context, token_estimate, CHARS_PER_TOKEN, CONTEXT_TOKENS_RANGE, DEFAULT_CONTEXT_TOKENS};
pub use conversation::{
    AnswerKind, Conversation, Message, MessageError, MessageStatus, Role, StoredConversation, HISTORY_FOR_LLM,
    MAX_CONTENT_CHARS, MAX_MESSAGES, STORAGE_FORMAT_VERSION,
};
pub use degraded::{links_answer, AnswerNote, NoteCode, PARTIAL_SEARCH_NOTE, SOURCES_UNREAD_NOTE};
pub use error::{ChatError, ChatErrorCode, PROXY_REFUSALS};
pub use events::{ChatEvent, ChatResponse, NoticeCode, Status, HISTORY_NOT_KEPT_MESSAGE, HISTORY_RESET_MESSAGE};
pub use extractive::excerpts_heading;
pub use extractive::extractive_answer;
pub use ids::{iso8601, uuid_v4};
pub use outcome::{Conclusion, Outcome};
pub use page::PageContext;
pub use passage::{
    passage, passage_link, MAX_PASSAGE_CHARS, MAX_PASSAGE_SENTENCES, PASSAGE_LINK_JOINER, PASSAGE_LINK_SEPARATOR,
    PASSAGE_LINK_WORDS, PASSAGE_PARAM,
};
pub use persona::Persona;
pub use plan::{
    finish_answer, notes_for, plan, refusal_message, Ask, AskRequest, FailedPart, Plan, Retrieval, RetrievalFailure,
    EMPTY_ANSWER_MESSAGE, REFUSAL_SUGGESTION, SLOW_MESSAGE,
};
pub use prompt::{build_prompt, request_body, ChatTurn};
pub use rules::{rules, ChatRules};
pub use site_name::SiteName;
pub use sources::{
    number_sources, shown_sources, NumberedSource, RetrievedChunk, RetrievedPart, SiteOrigins, SourceReference,
    MAX_SOURCES,
};
pub use stream::{CompletionStream, StreamStep};
pub use turn::{Next, Phase, Turn, TurnError};
