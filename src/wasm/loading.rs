//! `Loading`: the core's loading machine (`crate::loading`) for the search worker, which
//! applies each progress event to it before telling the page (www/lectern-js/progress.js).

use super::codes::Code;
use super::convert::to_js;
use super::errors::js_error;
use crate::loading::{LoadState, Phase};
use serde::de::IntoDeserializer;
use serde::Deserialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
pub struct Loading {
    state: LoadState,
}

#[wasm_bindgen]
impl Loading {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Loading {
        Loading { state: LoadState::Opening }
    }

    /// Applies progress `phase` (a ProgressPhase) of model attempt `attempt` (the model's
    /// phases only) and returns the new state; throws, leaving the state as it was, when the
    /// event cannot come now (a late event of a failed or older attempt: not to be told).
    #[wasm_bindgen(unchecked_return_type = "LoadState")]
    pub fn apply(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "ProgressPhase")] phase: &str,
        attempt: Option<u32>,
    ) -> Result<JsValue, JsError> {
        let name: serde::de::value::StrDeserializer<serde::de::value::Error> = phase.into_deserializer();
        let phase = Phase::deserialize(name)
            .map_err(|_| js_error(Code::InvalidArgument, format!("no progress phase {phase:?}"), None))?;
        self.state = self.state.apply(phase, attempt).map_err(|e| js_error(Code::Internal, e, Some("OUT_OF_ORDER")))?;
        to_js(&self.state)
    }

    /// The state now.
    #[wasm_bindgen(getter, unchecked_return_type = "LoadState")]
    pub fn state(&self) -> Result<JsValue, JsError> {
        to_js(&self.state)
    }
}

impl Default for Loading {
    fn default() -> Self {
        Loading::new()
    }
}
