//! The turn's record at the edge: its log line, and its data point in the Analytics Engine
//! dataset `TURN_ANALYTICS` where one is bound (docs/operations.md); without the binding, the
//! line alone, and nothing else changes.

use wasm_bindgen::{JsCast, JsValue};
use worker::{console_warn, AnalyticsEngineDataPointBuilder, AnalyticsEngineDataset, Env};

use crate::platform::bindings::OptionalBinding;
use crate::platform::settings::ANALYTICS_BINDING;
use crate::turn_record::TurnRecord;

thread_local! {
    static BINDING: OptionalBinding = const { OptionalBinding::new(ANALYTICS_BINDING) };
}

/// The dataset binding, when one is configured.
pub(crate) fn dataset(env: &Env) -> Option<AnalyticsEngineDataset> {
    // Unchecked, as workers-rs' own `Env::analytics_engine`: Miniflare's binding is a plain object.
    BINDING
        .with(|binding| binding.get(env))
        .map(JsCast::unchecked_into)
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
