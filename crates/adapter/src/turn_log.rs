//! The turn's record at the edge: its data point in the Analytics Engine dataset
//! `TURN_ANALYTICS` where one is bound (docs/operations.md); without the binding, nothing. Its log
//! line is the request's ([`crate::exchange::Exchange::finish`]).

use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use worker::Env;

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

/// Writes the record's point to the dataset. A point the platform refuses is logged, never an
/// error of the request.
pub(crate) fn write_point(record: &TurnRecord, dataset: &Dataset) {
    // The point's JSON is ours: it always parses.
    let point = js_sys::JSON::parse(&record.data_point_json()).unwrap_or(JsValue::UNDEFINED);
    if let Err(err) = dataset.write_data_point(&point) {
        // As workers-rs words the platform's error.
        let err = worker::Error::from(err);
        let why = format!("data point not written: {err}");
        crate::platform::log::warn("data_point", Some(record.request_id), &why);
    }
}
