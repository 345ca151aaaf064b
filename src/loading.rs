//! What the browser runtime has loaded, as one machine (docs/DESIGN.md §5.1): opening →
//! keyword → downloading the model → building it → hybrid, or → model failed (keyword search
//! goes on; a retry starts a new attempt). The search worker applies every progress event here
//! before it tells the page (www/lectern-js/progress.js), so an event out of order is refused
//! by construction: a late byte count of a failed model download cannot bring "downloading"
//! back, nor one of an earlier attempt disturb a retry.

use serde::{Deserialize, Serialize};

/// A progress event's `phase`, as the page receives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "ProgressPhase"))]
pub enum Phase {
    /// The core module is compiled and started.
    Runtime,
    /// Bytes of the index (chunk table, catalog pages) before keyword search works.
    Index,
    /// Keyword search works (`Lectern.open` resolves).
    LexicalReady,
    /// Bytes of the model, its tokenizer and the dense index (attempt `n`).
    Model,
    /// The model is being built in the embedder's worker.
    ModelInit,
    /// Semantic search works.
    HybridReady,
    /// The model could not be loaded, or the embedder stopped: keyword search goes on.
    ModelFailed,
}

// Read back (`Retriever.setLoadState`) through `LoadStateFields`, not serde's internally
// tagged enum: that buffers the object in serde's `Content` first, ~15 KB of the search
// module's code for one small object (BENCHMARKS.md, "The search module's code").
/// Where loading is. The model's states carry the attempt they belong to (the first load is
/// 1; each retry the next).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "kebab-case")]
#[cfg_attr(feature = "typescript", derive(ts_rs::TS), ts(rename = "LoadState"))]
pub enum LoadState {
    #[default]
    Opening,
    /// Keyword search works; the model has not started.
    Keyword,
    DownloadingModel {
        attempt: u32,
    },
    BuildingModel {
        attempt: u32,
    },
    Hybrid {
        attempt: u32,
    },
    ModelFailed {
        attempt: u32,
    },
}

/// A [`LoadState`] as its JSON object's fields: `{"state": "downloading-model", "attempt": 2}`.
/// Other fields are ignored, as they were by the tagged enum.
#[derive(Deserialize)]
struct LoadStateFields {
    state: StateName,
    attempt: Option<u32>,
}

/// The `state` of a [`LoadState`] (its variants' names, as serialised).
#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
enum StateName {
    Opening,
    Keyword,
    DownloadingModel,
    BuildingModel,
    Hybrid,
    ModelFailed,
}

impl<'de> Deserialize<'de> for LoadState {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        LoadState::try_from(LoadStateFields::deserialize(deserializer)?).map_err(serde::de::Error::custom)
    }
}

impl TryFrom<LoadStateFields> for LoadState {
    type Error = &'static str;

    fn try_from(fields: LoadStateFields) -> Result<Self, Self::Error> {
        let attempt = || fields.attempt.ok_or("missing field `attempt`");
        Ok(match fields.state {
            StateName::Opening => LoadState::Opening,
            StateName::Keyword => LoadState::Keyword,
            StateName::DownloadingModel => LoadState::DownloadingModel { attempt: attempt()? },
            StateName::BuildingModel => LoadState::BuildingModel { attempt: attempt()? },
            StateName::Hybrid => LoadState::Hybrid { attempt: attempt()? },
            StateName::ModelFailed => LoadState::ModelFailed { attempt: attempt()? },
        })
    }
}

/// A progress event that cannot come where loading is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("progress `{phase:?}` of attempt {attempt:?} cannot come while loading is {state:?}")]
pub struct Refused {
    pub phase: Phase,
    pub attempt: Option<u32>,
    pub state: LoadState,
}

impl LoadState {
    /// Whether semantic search is still on its way: loading has not reached the model yet,
    /// or the model is downloading or being built. Not once it works, nor after it failed
    /// (a retry is the reader's choice, not a promise).
    pub fn semantic_coming(self) -> bool {
        matches!(
            self,
            LoadState::Opening
                | LoadState::Keyword
                | LoadState::DownloadingModel { .. }
                | LoadState::BuildingModel { .. }
        )
    }

    /// The state after `phase` (of model attempt `attempt`, for the model's phases), or why it
    /// is refused. A new attempt (a number above the last one's) may start from `keyword` or
    /// after a failure; within an attempt the order is download → build → hybrid, and a
    /// failure ends it; nothing of an ended or older attempt is taken.
    pub fn apply(self, phase: Phase, attempt: Option<u32>) -> Result<LoadState, Refused> {
        use LoadState::{BuildingModel, DownloadingModel, Hybrid, Keyword, ModelFailed, Opening};
        let refused = Refused { phase, attempt, state: self };
        let current = match self {
            Opening | Keyword => 0,
            DownloadingModel { attempt } | BuildingModel { attempt } | Hybrid { attempt } | ModelFailed { attempt } => {
                attempt
            }
        };
        // The model's phases name their attempt; the others must not.
        let next = match (phase, attempt) {
            (Phase::Runtime | Phase::Index | Phase::LexicalReady, None) => {
                return match (self, phase) {
                    (Opening, Phase::LexicalReady) => Ok(Keyword),
                    (Opening, _) => Ok(Opening),
                    _ => Err(refused),
                };
            }
            (_, Some(attempt)) if attempt > 0 => attempt,
            _ => return Err(refused),
        };
        let new_attempt = next > current && matches!(self, Keyword | ModelFailed { .. });
        let same = next == current;
        let state = match (phase, self) {
            (Phase::Model, DownloadingModel { .. }) if same => self,
            (Phase::Model, _) if new_attempt => DownloadingModel { attempt: next },
            (Phase::ModelInit, DownloadingModel { .. }) if same => BuildingModel { attempt: next },
            (Phase::HybridReady, BuildingModel { .. }) if same => Hybrid { attempt: next },
            (Phase::ModelFailed, DownloadingModel { .. } | BuildingModel { .. } | Hybrid { .. }) if same => {
                ModelFailed { attempt: next }
            }
            // An attempt that fails before its first byte.
            (Phase::ModelFailed, _) if new_attempt => ModelFailed { attempt: next },
            _ => return Err(refused),
        };
        Ok(state)
    }
}

#[cfg(test)]
mod tests {
    use super::LoadState::*;
    use super::*;

    fn run(events: &[(Phase, Option<u32>)]) -> Result<LoadState, Refused> {
        events.iter().try_fold(Opening, |state, &(phase, attempt)| state.apply(phase, attempt))
    }

    #[test]
    fn loading_goes_in_order_to_hybrid() {
        let state = run(&[
            (Phase::Runtime, None),
            (Phase::Index, None),
            (Phase::Index, None),
            (Phase::LexicalReady, None),
            (Phase::Model, Some(1)),
            (Phase::Model, Some(1)),
            (Phase::ModelInit, Some(1)),
            (Phase::HybridReady, Some(1)),
        ]);
        assert_eq!(state, Ok(Hybrid { attempt: 1 }));
        assert_eq!(Opening.apply(Phase::Model, Some(1)).map_err(|r| r.state), Err(Opening), "no model before keywords");
        assert!(Keyword.apply(Phase::Index, None).is_err() && Keyword.apply(Phase::LexicalReady, None).is_err());
        assert!(Keyword.apply(Phase::Model, None).is_err(), "the model's phases name their attempt");
    }

    #[test]
    fn a_late_byte_count_after_the_failure_is_refused() {
        // What the issue saw: the model answered 404, `model-failed` went out, then the word
        // catalog's download reported its bytes 12 ms later.
        let failed = run(&[(Phase::LexicalReady, None), (Phase::Model, Some(1)), (Phase::ModelFailed, Some(1))]);
        assert_eq!(failed, Ok(ModelFailed { attempt: 1 }));
        let late = ModelFailed { attempt: 1 }.apply(Phase::Model, Some(1));
        assert_eq!(late, Err(Refused { phase: Phase::Model, attempt: Some(1), state: ModelFailed { attempt: 1 } }));
        for phase in [Phase::ModelInit, Phase::HybridReady, Phase::ModelFailed] {
            assert!(ModelFailed { attempt: 1 }.apply(phase, Some(1)).is_err(), "{phase:?}");
        }
    }

    #[test]
    fn a_retry_is_a_new_attempt_and_the_old_ones_events_stay_out() {
        let state = ModelFailed { attempt: 1 }.apply(Phase::Model, Some(2)).unwrap();
        assert_eq!(state, DownloadingModel { attempt: 2 });
        // Bytes of the first attempt, still arriving, change nothing.
        assert!(state.apply(Phase::Model, Some(1)).is_err());
        assert!(state.apply(Phase::ModelFailed, Some(1)).is_err());
        let state = state.apply(Phase::ModelInit, Some(2)).and_then(|s| s.apply(Phase::HybridReady, Some(2)));
        assert_eq!(state, Ok(Hybrid { attempt: 2 }));
        // An attempt may fail before its first byte, from keywords or after a failure.
        assert_eq!(Keyword.apply(Phase::ModelFailed, Some(1)), Ok(ModelFailed { attempt: 1 }));
        assert_eq!(ModelFailed { attempt: 1 }.apply(Phase::ModelFailed, Some(2)), Ok(ModelFailed { attempt: 2 }));
        // The embedder may stop once hybrid works (a word shard lost): that attempt fails.
        assert_eq!(Hybrid { attempt: 2 }.apply(Phase::ModelFailed, Some(2)), Ok(ModelFailed { attempt: 2 }));
        // No new attempt while one is running or done.
        assert!(DownloadingModel { attempt: 2 }.apply(Phase::Model, Some(3)).is_err());
        assert!(Hybrid { attempt: 2 }.apply(Phase::Model, Some(3)).is_err());
    }

    #[test]
    fn semantic_search_is_coming_until_the_model_works_or_fails() {
        for state in [Opening, Keyword, DownloadingModel { attempt: 1 }, BuildingModel { attempt: 2 }] {
            assert!(state.semantic_coming(), "{state:?}");
        }
        for state in [Hybrid { attempt: 1 }, ModelFailed { attempt: 1 }] {
            assert!(!state.semantic_coming(), "{state:?}");
        }
        // A retry after a failure is on its way again.
        assert!(ModelFailed { attempt: 1 }.apply(Phase::Model, Some(2)).is_ok_and(LoadState::semantic_coming));
    }

    #[test]
    fn phases_and_states_are_serialised_as_the_page_reads_them() {
        assert_eq!(serde_json::to_value(Phase::ModelFailed).ok(), Some("model-failed".into()));
        assert_eq!(serde_json::to_value(Phase::LexicalReady).ok(), Some("lexical-ready".into()));
        assert_eq!(
            serde_json::to_value(DownloadingModel { attempt: 2 }).ok(),
            Some(serde_json::json!({"state": "downloading-model", "attempt": 2}))
        );
        // The worker hands the state back to the core (the search's `Retriever`) as it got it.
        let failed = serde_json::json!({"state": "model-failed", "attempt": 1});
        assert_eq!(serde_json::from_value::<LoadState>(failed).ok(), Some(ModelFailed { attempt: 1 }));
        assert_eq!(serde_json::from_value::<LoadState>(serde_json::json!({"state": "keyword"})).ok(), Some(Keyword));
        // Every state reads back as it was written; a model state without its attempt, or an
        // unknown state, does not read.
        for state in
            [Opening, Keyword, DownloadingModel { attempt: 3 }, BuildingModel { attempt: 1 }, Hybrid { attempt: 2 }]
        {
            let json = serde_json::to_string(&state).unwrap_or_default();
            assert_eq!(serde_json::from_str::<LoadState>(&json).ok(), Some(state), "{json}");
        }
        assert!(serde_json::from_value::<LoadState>(serde_json::json!({"state": "hybrid"})).is_err());
        assert!(serde_json::from_value::<LoadState>(serde_json::json!({"state": "ready"})).is_err());
        assert!(serde_json::from_value::<LoadState>(serde_json::json!({"attempt": 1})).is_err());
    }
}
