//! What a pump is held to: its clock ([`TICK_MS`]), its limits ([`PumpLimits`], [`STALL_TICKS`],
//! the agent's socket's ping period), and when it sends the agent `abort` ([`AbortRule`], the
//! core's `pacing` rule).

use crate::config::Config;
pub(crate) use crate::pacing::AbortRule;

/// The pump's clock period.
///
/// workerd notices a vanished client only on a write, and the first write after a disconnect may
/// still succeed (it lands in the socket buffer); the next one fails. A keep-alive comment goes
/// out on a tick when nothing was written since the tick before, so during silence one is
/// written every two ticks (250 ms): two of them plus the trip of the `abort` to the agent stay
/// inside the 1 s in which a disconnect must reach the agent. Idle cost: 240 comments of 14
/// bytes (`: keep-alive\n\n`) a minute, 3,360 bytes per idle minute (plus about 5 bytes of
/// HTTP/1.1 chunk framing each). Far below any proxy's idle limit (Cloudflare's is 100 s).
pub(crate) const TICK_MS: u64 = 125;

/// Ticks (2 s) a body may go entirely unread, with chunks waiting, before its client counts
/// as gone. A client that disconnected before the headers went out leaves exactly this sign
/// and no other (see [`super::client::ClientStream::check_progress`]). A live client drains its
/// body as fast as the network takes it, and kernel socket buffers hold hundreds of kilobytes,
/// far more than a chat turn writes in 2 s: only a client that stopped reading long ago stalls
/// that long.
pub(super) const STALL_TICKS: u32 = 16;

/// The limits a pump enforces, from the worker's config.
pub(crate) struct PumpLimits {
    pub(super) max_frame_bytes: usize,
    pub(super) max_buffered_bytes: usize,
    pub(super) first_event_ticks: u64,
    pub(super) idle_ticks: u64,
    /// The opening padding's bytes (`STREAM_PADDING`; 0: none).
    pub(super) padding: usize,
    /// The ping period of the agent's socket, in ticks (`LIVENESS_PING_MS`, the core's
    /// `liveness`).
    pub(super) ping_ticks: u64,
}

impl From<&Config> for PumpLimits {
    fn from(config: &Config) -> Self {
        PumpLimits {
            max_frame_bytes: config.max_frame_bytes,
            max_buffered_bytes: config.max_buffered_bytes,
            first_event_ticks: config.first_event_timeout_ms.div_ceil(TICK_MS),
            idle_ticks: config.idle_timeout_ms.div_ceil(TICK_MS),
            padding: config.stream_padding,
            ping_ticks: config.liveness_ping_ms.div_ceil(TICK_MS),
        }
    }
}
