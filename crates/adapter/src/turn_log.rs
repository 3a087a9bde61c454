//! The turn's record at the edge: its log line, and its data point in the Analytics Engine
//! dataset `TURN_ANALYTICS` where one is bound (docs/operations.md); without the binding, the
//! line alone, and nothing else changes.

use std::cell::Cell;

use js_sys::Reflect;
use wasm_bindgen::JsValue;
use worker::{console_warn, AnalyticsEngineDataPointBuilder, AnalyticsEngineDataset, Env};

use crate::platform::settings::ANALYTICS_BINDING;
use crate::turn_record::TurnRecord;

thread_local! {
    /// Whether the isolate's `env` was seen without the binding: its bindings are fixed for the
    /// isolate's life, so a worker without a dataset looks once. A binding that is there is read
    /// for each request, as the request's own.
    static UNBOUND: Cell<bool> = const { Cell::new(false) };
}

/// The dataset binding, when one is configured.
pub(crate) fn dataset(env: &Env) -> Option<AnalyticsEngineDataset> {
    if UNBOUND.get() {
        return None;
    }
    let binding =
        Reflect::get(env, &JsValue::from_str(ANALYTICS_BINDING)).unwrap_or(JsValue::UNDEFINED);
    if binding.is_undefined() {
        UNBOUND.set(true);
        return None;
    }
    env.analytics_engine(ANALYTICS_BINDING).ok()
}

/// Writes the record: its line to the log, its point to the dataset if there is one. A point the
/// platform refuses is logged, never an error of the request.
pub(crate) fn write(record: &TurnRecord, dataset: Option<&AnalyticsEngineDataset>) {
    // The line as it is: `console_log!` would format it into a copy first.
    web_sys::console::log_1(&JsValue::from_str(&record.to_line()));
    let Some(dataset) = dataset else {
        return;
    };
    let point = record.data_point();
    let mut builder = AnalyticsEngineDataPointBuilder::new().indexes([point.index.as_str()]);
    for blob in &point.blobs {
        builder = builder.add_blob(blob.as_str());
    }
    for double in point.doubles {
        builder = builder.add_double(double);
    }
    if let Err(err) = dataset.write_data_point(&builder.build()) {
        console_warn!(
            "request {}: data point not written: {err}",
            record.request_id
        );
    }
}
