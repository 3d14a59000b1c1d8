//! What changes between the fables in the page's shared chrome: the controls, the crew cards, the
//! panel, the log's title, the key of who stands for what. The components are the same for both
//! fables; only the words are told differently, through [`Ui::told`].

use super::i18n::Ui;
use super::picture::Telling;
use crate::vocab::Fable;

/// How `fable` tells the shared picture ([`super::picture`]): its words for each state.
pub fn telling(fable: Fable) -> &'static Telling {
    match fable {
        Fable::Harbor => &super::harbor::HARBOR,
        Fable::Lantern => &super::lantern::LANTERN,
    }
}

impl Ui {
    /// This text as `fable` tells it: the lantern's own words where the harbor's would not fit
    /// the town, and the same variant everywhere else (technical words are shared).
    pub fn told(self, fable: Fable) -> Ui {
        match fable {
            Fable::Harbor => self,
            Fable::Lantern => lantern_word(self).unwrap_or(self),
        }
    }
}

/// The lantern's variant of a harbor-worded text, if it has one.
fn lantern_word(ui: Ui) -> Option<Ui> {
    use Ui::*;
    Some(match ui {
        AppTagline => LanternTagline,
        FencingOn => LanternFencingOn,
        FencingOff => LanternFencingOff,
        RevokeLease => LanternRevoke,
        RevokeHint => LanternRevokeHint,
        Crew => LanternCrew,
        NoCrew => LanternNoCrew,
        Crash => LanternCrash,
        Restart => LanternRestart,
        CutOff => LanternCutOff,
        Reconnect => LanternReconnect,
        StoryGone => LanternStoryHurt,
        StoryNotYet => LanternStoryNotYet,
        StoryCutOff => LanternStoryLost,
        StoryRaisedFlag => LanternStoryCarries,
        StoryStaleFlag => LanternStoryDead,
        StoryPreparedFlag => LanternStoryPrepared,
        StoryOnPlaque => LanternStoryOnTablet,
        SceneLabel => LanternSceneLabel,
        Outside => Stranger,
        MsgAcquireRequest => LanternMsgAcquire,
        MsgAcquireReply => LanternMsgAcquireReply,
        MsgRenewRequest => LanternMsgRenew,
        MsgRenewReply => LanternMsgRenewReply,
        MsgWrite => LanternMsgWrite,
        RowPlaqueName => LanternRowTabletName,
        RowHourglass => LanternRowWick,
        RowTookPost => LanternRowLatched,
        RowLastMark => LanternRowRenewed,
        RowSandLeft => LanternRowWickLeft,
        RowPlaqueNumber => LanternRowWickNumber,
        RowOnlyCounts => LanternRowOnlyCounts,
        RowBoatObeys => LanternRowLastErrand,
        RowVerifierOnDuty => LanternRowKeeper,
        RowSameNumber => LanternRowSameWick,
        RowFlagsJudged => LanternRowErrands,
        RowStoreClock => LanternRowStoreClock,
        ViolationsHint => LanternViolationsHint,
        DiagramStore => LanternDiagramStore,
        DiagramResource => LanternDiagramResource,
        RowWhoJudges => LanternRowWhoJudges,
        LogTitle => LanternLogTitle,
        CaptionEmpty => LanternCaptionEmpty,
        FigureTimer => LanternFigureTimer,
        FigureGate => LanternFigureGate,
        FigureTimerLeft => LanternFigureTimerLeft,
        FigureTimerIdle => LanternFigureTimerIdle,
        FigureGateOn => LanternFigureGateOn,
        FigureGateOff => LanternFigureGateOff,
        FigureFencingOff => LanternFigureFencingOff,
        FigureFencingOn => LanternFigureFencingOn,
        _ => return None,
    })
}

/// One entry of the key: the fable's element, the concept, and a stable key (`data-legend`).
pub type LegendEntry = (Ui, Ui, &'static str);

/// The harbor's key (seed `000`'s metaphor table).
const HARBOR_LEGEND: &[LegendEntry] = &[
    (Ui::LegendHarbor, Ui::LegendHarborIs, "harbor"),
    (Ui::LegendBearer, Ui::LegendBearerIs, "bearer"),
    (Ui::LegendDockmaster, Ui::LegendDockmasterIs, "dockmaster"),
    (Ui::LegendNumber, Ui::LegendNumberIs, "number"),
    (Ui::LegendHourglass, Ui::LegendHourglassIs, "hourglass"),
    (Ui::LegendMark, Ui::LegendMarkIs, "mark"),
    (Ui::LegendSleep, Ui::LegendSleepIs, "sleep"),
    (Ui::LegendGone, Ui::LegendGoneIs, "gone"),
    (Ui::LegendFog, Ui::LegendFogIs, "fog"),
    (Ui::LegendSlip, Ui::LegendSlipIs, "slip"),
    (Ui::LegendFlag, Ui::LegendFlagIs, "flag"),
    (Ui::LegendVerifier, Ui::LegendVerifierIs, "verifier"),
    (Ui::LegendRocks, Ui::LegendRocksIs, "rocks"),
];

/// The lantern's key (seed `001`'s metaphor table, with the keeper and the ditch).
const LANTERN_LEGEND: &[LegendEntry] = &[
    (Ui::LanternLegendLantern, Ui::LanternLegendLanternIs, "lantern"),
    (Ui::LanternLegendTablet, Ui::LanternLegendTabletIs, "tablet"),
    (Ui::LanternLegendClasp, Ui::LanternLegendClaspIs, "clasp"),
    (Ui::LanternLegendHour, Ui::LanternLegendHourIs, "return-hour"),
    (Ui::LanternLegendRenew, Ui::LanternLegendRenewIs, "renew"),
    (Ui::LanternLegendFree, Ui::LanternLegendFreeIs, "expire"),
    (Ui::LanternLegendWick, Ui::LanternLegendWickIs, "wick"),
    (Ui::LanternLegendAnkle, Ui::LanternLegendAnkleIs, "ankle"),
    (Ui::LanternLegendKeeper, Ui::LanternLegendKeeperIs, "keeper"),
    (Ui::LanternLegendDitch, Ui::LanternLegendDitchIs, "ditch"),
];

/// The key of who stands for what in `fable`.
pub fn legend(fable: Fable) -> &'static [LegendEntry] {
    match fable {
        Fable::Harbor => HARBOR_LEGEND,
        Fable::Lantern => LANTERN_LEGEND,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::Lang;

    fn holes(s: &str) -> Vec<&str> {
        let mut v: Vec<&str> = s.split('{').skip(1).filter_map(|p| p.split_once('}').map(|(k, _)| k)).collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn the_harbor_keeps_its_words() {
        for ui in Ui::ALL {
            assert_eq!(ui.told(Fable::Harbor), *ui);
        }
    }

    /// A lantern word takes the same placeholders as the harbor word it replaces, and never
    /// mentions the harbor.
    #[test]
    fn lantern_words_fit_where_harbor_words_were() {
        let mut replaced = 0;
        for ui in Ui::ALL {
            let told = ui.told(Fable::Lantern);
            if told == *ui {
                continue;
            }
            replaced += 1;
            for lang in [Lang::En, Lang::Zh] {
                assert_eq!(holes(ui.text(lang)), holes(told.text(lang)), "{ui:?} → {told:?}");
            }
            let en = told.text(Lang::En).to_lowercase();
            for word in ["flag", "harbor", "boat", "plaque", "hourglass", "dockmaster", "sand"] {
                assert!(!en.contains(word), "{told:?} says {word}");
            }
            assert_eq!(told.told(Fable::Lantern), told, "{told:?} is the lantern's own");
        }
        assert!(replaced >= 30, "only {replaced} words retold");
    }

    #[test]
    fn each_fable_has_its_key() {
        for fable in Fable::ALL {
            let key = legend(fable);
            assert!(key.len() >= 10);
            let mut keys: Vec<&str> = key.iter().map(|(_, _, k)| *k).collect();
            keys.sort_unstable();
            keys.dedup();
            assert_eq!(keys.len(), key.len(), "{fable:?}: keys are unique");
        }
        assert!(legend(Fable::Lantern)
            .iter()
            .all(|(a, b, _)| a.told(Fable::Lantern) == *a && b.told(Fable::Lantern) == *b));
    }
}
