//! The conversation's copy in `sessionStorage` (per tab, kept across reloads), through
//! gloo-storage. Storage that is disabled, full or holds something unreadable never stops
//! the chat: it goes on in memory and the reader is told once, with the core's notice
//! (`HISTORY_NOT_KEPT`, `HISTORY_RESET`).

use crate::chat::{Conversation, NoticeCode, StoredConversation};
use gloo_storage::errors::StorageError;
use gloo_storage::{SessionStorage, Storage};

pub enum Store {
    Session(String),
    Memory,
}

impl Store {
    /// The store for `key` and the conversation it holds, if any. gloo-storage throws when
    /// `sessionStorage` itself is unavailable, so that is checked first.
    pub fn open(key: &str) -> (Store, Option<Conversation>, Option<NoticeCode>) {
        if !session_storage_available() {
            return (Store::Memory, None, Some(NoticeCode::HistoryNotKept));
        }
        let store = Store::Session(key.to_string());
        match SessionStorage::get::<StoredConversation>(key) {
            Ok(stored) => match stored.into_valid() {
                Some(conversation) => (store, Some(conversation), None),
                None => (store, None, Some(NoticeCode::HistoryReset)),
            },
            Err(StorageError::KeyNotFound(_)) => (store, None, None),
            Err(_) => (store, None, Some(NoticeCode::HistoryReset)),
        }
    }

    /// Writes `conversation`; on failure switches to memory and says so (once).
    pub fn save(&mut self, conversation: &Conversation) -> Option<NoticeCode> {
        let Store::Session(key) = self else { return None };
        match SessionStorage::set(key.as_str(), StoredConversation::new(conversation.clone())) {
            Ok(()) => None,
            Err(_) => {
                // A stale copy must not come back on reload.
                let _ = remove(key);
                *self = Store::Memory;
                Some(NoticeCode::HistoryNotKept)
            }
        }
    }

    pub fn clear(&mut self) {
        if let Store::Session(key) = self {
            let _ = remove(key);
        }
    }
}

fn session_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

fn session_storage_available() -> bool {
    session_storage().is_some()
}

/// `removeItem` without gloo, whose `delete` throws into JS on failure.
fn remove(key: &str) -> Option<()> {
    session_storage()?.remove_item(key).ok()
}
