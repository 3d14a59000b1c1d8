//! The fable-neutral concepts a fable names in its own words: every fable gives each [`Word`] a
//! text in English and Simplified Chinese (`Texts::words`, an exhaustive match), and the page, the
//! story layer and the drawings ask for a concept, never for a fable's word.
//!
//! A placeholder (`{n}`, `{s}`, `{name}`, …) a concept's text holds is the same in every fable and
//! both languages: the code that fills it knows only the concept (`tests/fables.rs` checks it).

/// Declares [`Word`] and [`Word::ALL`] from one list.
macro_rules! concepts {
    ($( $(#[$doc:meta])* $name:ident, )*) => {
        /// A concept every fable names in its own words.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Word {
            $( $(#[$doc])* $name, )*
        }

        impl Word {
            /// Every concept, in declaration order (the order of a fable's pack).
            pub const ALL: &'static [Word] = &[ $( Word::$name, )* ];

            /// How many of the first concepts introduce a fable ([`Word::Name`] to
            /// [`Word::LandingPlay`]): the page says them of every fable before any is shown (the
            /// picker, the landing card, a title told by another fable), so they are in the page's
            /// first pack for every fable rather than in each fable's own.
            pub const INTRODUCTION: usize = 5;
        }
    };
}

concepts! {
    // ----- the fable itself -----
    /// Its name in the fable picker.
    Name,
    /// A scenario's title when it is told by this fable rather than its own: `{title}`.
    TitleToldAs,
    /// The landing card: the fable's name and what it shows.
    LandingName,
    /// The landing card: the button that starts its lesson.
    LandingLesson,
    /// The landing card: the button that plays its story.
    LandingPlay,
    /// The page's subtitle while this fable tells the run.
    Tagline,
    /// What the scene shows, for screen readers.
    SceneLabel,
    // ----- the record and its timer -----
    /// The record with nobody's name on it.
    RecordFree,
    /// The timer running: `{s}` seconds of the lease left.
    TimerLeft,
    /// The timer out (the lease lapsed, was revoked or released).
    TimerOut,
    /// The timer never started.
    TimerUnset,
    /// Renewals in this term: `{n}`.
    Renewals,
    // ----- the gate: the fenced resource -----
    /// Who checks the tokens at the resource.
    Gate,
    /// The gate's sign: only token `{n}` (the high-water mark) or newer counts.
    GateOnly,
    /// The gate's sign before any token was seen.
    GateUnseen,
    /// The gate with nobody checking (fencing off).
    GateAway,
    /// The second line of that sign: every write is obeyed.
    GateLetsAll,
    /// A verdict: the write was accepted.
    Accepted,
    /// A verdict: the write was refused.
    Refused,
    /// A verdict: the same operation was already done (dedupe).
    Duplicate,
    /// Whoever sends a write from outside the cast.
    Outsider,
    /// The resource before it accepted any write.
    OutcomeIdle,
    /// The resource after accepting a write with token `{n}`.
    OutcomeLast,
    /// The collision: a stale write accepted after a newer one.
    Collision,
    /// Why: `{old}` accepted after `{new}`.
    CollisionWhy,
    // ----- the actors -----
    /// What a paused actor says.
    Asleep,
    /// The nodes, as the side panel's cards call them.
    Crew,
    /// A scenario without nodes.
    NoCrew,
    /// The buttons that crash, restart, cut off and reconnect a node.
    Crash,
    Restart,
    CutOff,
    Reconnect,
    /// A card's state line: crashed, not started yet, partitioned.
    ActorGone,
    ActorNotYet,
    ActorCutOff,
    /// A card's state line: believes it holds the lease with token `{n}`.
    ActorHolds,
    /// … while the record already holds the newer token `{n}`.
    ActorStale,
    /// … paused with a write prepared under token `{n}`.
    ActorPrepared,
    /// A card's state line: its name is on the record.
    ActorOnRecord,
    // ----- messages in flight, by kind -----
    /// Acquire request and reply, renew request and reply, a write, a release request.
    MsgAcquire,
    MsgAcquireReply,
    MsgRenew,
    MsgRenewReply,
    MsgWrite,
    MsgRelease,
    // ----- the world's levers and the figures' menus -----
    /// The fencing switch, on and off.
    FencingOn,
    FencingOff,
    /// Revoking the lease now, and its hint.
    Revoke,
    RevokeHint,
    /// The timer's and the gate's figures, as their menus name them.
    FigureTimer,
    FigureGate,
    /// The timer's menu: `{name}` holds the lease with `{s}` seconds left; nobody holds it.
    FigureTimerLeft,
    FigureTimerIdle,
    /// The gate's menu: only `{n}` or newer passes; nobody checks.
    FigureGateOn,
    FigureGateOff,
    /// The gate's menu: fencing off, fencing on.
    FigureFencingOff,
    FigureFencingOn,
    // ----- the panels -----
    /// The log's title.
    LogTitle,
    /// The caption before anything happened.
    CaptionEmpty,
    /// The violations tab's hint.
    ViolationsHint,
    /// The space-time diagram's lanes for the store and the resource.
    DiagramStore,
    DiagramResource,
    /// The technical table's "in the story" column, one per row: the holder, the lease's
    /// duration, when it was acquired, the last renewal, the time left, the token, the
    /// high-water mark, the last write accepted, the fencing check, a second write with the same
    /// token, the writes accepted and refused, the store's clock, who judges expiry.
    RowHolder,
    RowDuration,
    RowAcquired,
    RowRenewed,
    RowRemaining,
    RowToken,
    RowMark,
    RowLastAccepted,
    RowGateOnDuty,
    RowEqualToken,
    RowWritesJudged,
    RowStoreClock,
    RowWhoJudges,
}
