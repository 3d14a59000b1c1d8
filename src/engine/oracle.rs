//! The oracle: a safety checker that looks at every judged write.
//!
//! It knows what no single actor knows (the newest token the coordinator granted), so it can
//! say when the resource obeyed a deposed leader. With fencing on this happens only while the
//! resource has not yet seen the newer term (seed `002`: issuance informs no one by itself);
//! with fencing off it is the collision the harbor fable warns about.

use super::resource::Judgement;
use super::token::WireToken;
use super::trace::{Violation, WriteOutcome};

/// The violation this write caused, if any.
pub fn check_write(
    judgement: &Judgement,
    token: &WireToken,
    newest_granted: Option<u64>,
    op_id: &str,
    from: Option<&str>,
) -> Option<Violation> {
    if judgement.outcome != WriteOutcome::Accepted {
        return None;
    }
    let from = from.map(str::to_owned);
    match token.valid() {
        Some(t) => {
            let newest = newest_granted?;
            (t < newest).then(|| Violation::StaleWriteAccepted {
                op_id: op_id.to_owned(),
                from,
                token: t,
                newest_granted: newest,
                resource_had_seen_newer: judgement.high_water_before > t,
            })
        }
        None => Some(Violation::InvalidTokenAccepted { op_id: op_id.to_owned(), from, token: token.clone() }),
    }
}
