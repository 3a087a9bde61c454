//! How a turn's task acts on its session ([`TurnSession`] for [`Session`]): each frame of the turn
//! broadcast to every socket, applied to the turn's message in the same step (stored as it
//! finishes, and while it runs, at most a second behind: what a restart keeps), its
//! `message.create` given what the store says it carries (the turn's user message), and the
//! turn's end.

use super::Session;
use crate::agent::turn::TurnSession;
use crate::frames;
use crate::platform::clock::now_ms;
use crate::record::{end_failed, Record};
use crate::rows::with_fields;
use crate::v2::{parse_frame, Frame};

/// Most time between two storings of a running turn's message (and at each question, at once):
/// what a restart of the object keeps of the turn (R-restart: its parts so far, then an error) is
/// at most a second behind, and a turn of thousands of deltas writes its row a few times, not
/// thousands.
const SAVE_EVERY_MS: u64 = 1_000;

impl TurnSession for Session {
    /// Turn `seq` waits for an answer: nobody owns it until one comes.
    fn awaiting_answer(&self, seq: u64) {
        if let Some(live) = self.turn.borrow_mut().as_mut().filter(|l| l.seq == seq) {
            live.owner = None;
        }
    }

    /// Sends turn `seq`'s `frame` to every socket; a socket that fails is let go. When
    /// `logged`, the frame is first applied to the turn's message (a message it finishes is
    /// stored) and logged once, under the prompt's connection; the turn's `message.create` gets
    /// what the store says it carries (its user message). False, and nothing sent, when `seq`
    /// is no longer the turn in flight.
    fn broadcast(&self, seq: u64, frame: &str, logged: bool) -> bool {
        let mut created = None;
        let mut progress = None;
        let (conn, finished) = {
            let mut turn = self.turn.borrow_mut();
            let Some(live) = turn.as_mut().filter(|live| live.seq == seq) else {
                return false;
            };
            let mut finished = None;
            if let (true, Some(message)) = (logged, live.message.as_mut()) {
                match parse_frame(frame) {
                    Ok(Frame::MessageCreate(_)) => {
                        created = live.create_fields.take().map(|f| with_fields(frame, &f));
                    }
                    Ok(parsed) if message.apply(&parsed) => finished = live.message.take(),
                    Ok(parsed) => {
                        let now = now_ms();
                        let asks = matches!(parsed, Frame::Question(_));
                        if asks || now.saturating_sub(live.saved_at) >= SAVE_EVERY_MS {
                            live.saved_at = now;
                            progress = Some(message.clone());
                        }
                    }
                    Err(_) => {}
                }
            }
            (live.conn, finished)
        };
        if let Some(message) = progress {
            self.store().progress(&message);
        }
        let frame = created.as_deref().unwrap_or(frame);
        if let Some(message) = finished {
            self.store_finished(message);
        }
        if logged {
            self.logs.sent(conn, frame);
        }
        self.peers
            .borrow_mut()
            .retain(|peer| peer.socket.send_with_str(frame).is_ok());
        true
    }

    /// Closes the socket of turn `seq`'s prompt (a replay's end), if it is still connected.
    fn close_prompter(&self, seq: u64, code: u16, reason: &str) {
        let turn = self.turn.borrow();
        let Some(conn) = turn.as_ref().filter(|l| l.seq == seq).map(|l| l.conn) else {
            return;
        };
        drop(turn);
        self.peers.borrow_mut().retain(|peer| {
            if peer.conn != conn {
                return true;
            }
            // A socket that is already closing is let go all the same.
            let _ = peer.socket.close(Some(code), Some(reason));
            false
        });
    }

    /// Closes every socket of the session (`/drop`), if turn `seq` is still in flight.
    fn close_all(&self, seq: u64, code: u16, reason: &str) {
        if self.turn.borrow().as_ref().is_none_or(|l| l.seq != seq) {
            return;
        }
        let peers = std::mem::take(&mut *self.peers.borrow_mut());
        for peer in peers {
            let _ = peer.socket.close(Some(code), Some(reason));
        }
    }

    /// Ends turn `seq`, if it is still in flight: a message it left unfinished (only `/drop`
    /// does) is finished as failed and stored. Its task stops.
    fn end_turn(&self, seq: u64) {
        let live = {
            let mut turn = self.turn.borrow_mut();
            match turn.as_ref() {
                Some(live) if live.seq == seq => turn.take(),
                _ => None,
            }
        };
        let Some(mut message) = live.and_then(|live| live.message) else {
            return;
        };
        end_failed(&mut message, frames::DROPPED_TEXT);
        self.store_finished(message);
    }
}
