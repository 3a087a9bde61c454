//! One step of a demo turn: how long it waits, and what it does then (send, close, wait, ...).

/// What a step does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Send this text frame.
    Send(String),
    /// Send this text frame without keeping it in the sent log (`/flood`'s deltas).
    SendUnlogged(String),
    /// Send delta `i` of a `/stamp` turn, stamped with the time it is sent
    /// ([`super::frames::stamp_frame`]); not kept in the sent log.
    Stamp(u64),
    /// Close the socket of the prompt that started the turn (`/replay`); the turn ends.
    Close { code: u16, reason: &'static str },
    /// Close every socket of the session (`/drop`); the turn ends, recorded as failed.
    Drop { code: u16, reason: &'static str },
    /// Wait, with no timer, until the pending question is answered
    /// ([`super::script::Script::answered`]).
    AwaitAnswer,
    /// Panic (`/panic`): the test that proves the reliability suite sees a panic of the worker.
    Panic,
}

/// One step of a turn: wait `wait_ms` after the previous step, then act.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptStep {
    pub wait_ms: u64,
    pub action: Action,
}
