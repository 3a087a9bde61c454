//! The turn's record at the edge: its log line, and its data point in the Analytics Engine
//! dataset `TURN_ANALYTICS` where one is bound (docs/operations.md); without the binding, the
//! line alone, and nothing else changes.

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use worker::{console_warn, Env};

use crate::platform::bindings::OptionalBinding;
use crate::platform::settings::ANALYTICS_BINDING;
use crate::turn_record::TurnRecord;

#[wasm_bindgen]
extern "C" {
    /// The binding: `writeDataPoint(point: { indexes, doubles, blobs }): void`. Not workers-rs'
    /// `AnalyticsEngineDataset`, whose builder hands JavaScript the point a value at a time.
    pub(crate) type Dataset;
    #[wasm_bindgen(method, catch, js_name = writeDataPoint)]
    fn write_data_point(this: &Dataset, point: &JsValue) -> Result<(), JsValue>;
}

thread_local! {
    static BINDING: OptionalBinding = const { OptionalBinding::new(ANALYTICS_BINDING) };
}

/// The dataset binding, when one is configured.
pub(crate) fn dataset(env: &Env) -> Option<Dataset> {
    // Unchecked, as workers-rs' own `Env::analytics_engine`: Miniflare's binding is a plain object.
    BINDING
        .with(|binding| binding.get(env))
        .map(JsCast::unchecked_into)
}

/// Writes the record: its line to the log, its point to the dataset if there is one. A point the
/// platform refuses is logged, never an error of the request.
pub(crate) fn write(record: &TurnRecord, dataset: Option<&Dataset>) {
    // The line as it is: `console_log!` would format it into a copy first.
    web_sys::console::log_1(&JsValue::from_str(&record.to_line()));
    let Some(dataset) = dataset else {
        return;
    };
    // The point's JSON is ours: it always parses.
    let point = js_sys::JSON::parse(&record.data_point_json()).unwrap_or(JsValue::UNDEFINED);
    if let Err(err) = dataset.write_data_point(&point) {
        // As workers-rs words the platform's error.
        let err = worker::Error::from(err);
        console_warn!(
            "request {}: data point not written: {err}",
            record.request_id
        );
    }
}
