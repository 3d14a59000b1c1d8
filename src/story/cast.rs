//! Who is who: the display names of a scenario's nodes in each language, for the fable that
//! tells the run.
//!
//! The harbor takes its flag-bearers' names from the scenario file. The lantern has its own cast
//! of Nantang townsfolk ([`LANTERN_CAST`]), given to the nodes in node order, so any scenario can
//! be told as the lantern without the harbor's names wandering into the town.

use crate::engine::StoreKind;
use crate::scenario::Scenario;
use crate::vocab::Fable;
use crate::vocab::Lang;

/// The lantern's borrowers, `[en, zh]`, given to nodes in node order (the scenario format allows
/// at most [`crate::engine::MAX_NODES`] nodes; any beyond this list are shown by their id).
pub const LANTERN_CAST: [[&str; 2]; 8] = [
    ["A-Xiu", "阿秀"],
    ["Smith Wang", "王铁匠"],
    ["Auntie Zhou", "周婶"],
    ["Xiaoman", "小满"],
    ["Uncle He", "何伯"],
    ["Liu the peddler", "刘货郎"],
    ["Chunni", "春妮"],
    ["Teacher Sun", "孙先生"],
];

/// Display names for one scenario's nodes, in one fable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cast {
    /// `(id, [en, zh])` in node order.
    names: Vec<(String, [String; 2])>,
    /// `(id, holderIdentity)` in node order.
    identities: Vec<(String, String)>,
    renew_deadline_ms: u64,
    fable: Fable,
    /// The store profile the run uses (its technical lines name it).
    store: StoreKind,
}

impl Cast {
    /// The harbor's cast: names from the scenario file; a node without a `name` is shown by its
    /// id, capitalised.
    pub fn new(scenario: &Scenario) -> Self {
        let names = scenario
            .config
            .nodes
            .iter()
            .zip(&scenario.node_names)
            .map(|(node, name)| {
                let pair = match name {
                    Some(n) => [n.en.clone(), n.zh.clone()],
                    None => {
                        let shown = capitalise(&node.id);
                        [shown.clone(), shown]
                    }
                };
                (node.id.clone(), pair)
            })
            .collect();
        let identities = identities(scenario);
        Self {
            names,
            identities,
            renew_deadline_ms: scenario.config.lease.renew_deadline_ms,
            fable: Fable::Harbor,
            store: scenario.config.store_kind,
        }
    }

    /// The cast that tells `scenario` as `fable`: the harbor's is [`Cast::new`]; the lantern's
    /// gives node `i` the townsperson `LANTERN_CAST[i]`, whatever the file calls it.
    pub fn for_fable(scenario: &Scenario, fable: Fable) -> Self {
        match fable {
            Fable::Harbor => Self::new(scenario),
            Fable::Lantern => {
                let names = scenario
                    .config
                    .nodes
                    .iter()
                    .enumerate()
                    .map(|(i, node)| {
                        let pair = match LANTERN_CAST.get(i) {
                            Some([en, zh]) => [(*en).to_owned(), (*zh).to_owned()],
                            None => [capitalise(&node.id), capitalise(&node.id)],
                        };
                        (node.id.clone(), pair)
                    })
                    .collect();
                let identities = identities(scenario);
                Self {
                    names,
                    identities,
                    renew_deadline_ms: scenario.config.lease.renew_deadline_ms,
                    fable,
                    store: scenario.config.store_kind,
                }
            }
        }
    }

    /// The store profile the run uses.
    pub fn store(&self) -> StoreKind {
        self.store
    }

    /// The fable this cast plays in (narration tells its story lines in that fable's words).
    pub fn fable(&self) -> Fable {
        self.fable
    }

    /// The scenario's renew deadline, in ms (narration quotes it).
    pub fn renew_deadline_ms(&self) -> u64 {
        self.renew_deadline_ms
    }

    /// The `holderIdentity` node `id` claims (its id unless the scenario gives another); an unknown
    /// id is returned as it is.
    pub fn identity(&self, id: &str) -> String {
        self.identities.iter().find(|(i, _)| i == id).map_or_else(|| id.to_owned(), |(_, identity)| identity.clone())
    }

    /// How a process is named where a system prints it (`holderIdentity`, a lock's value, the
    /// technical line of the log, the resource's table): its identity as the scenario gives it.
    /// Under the lantern, a node that kept the default identity (its id) goes by its townsperson's
    /// handle (`a-xiu`, `smith-wang`, …), so the town's technical view never shows the harbor's
    /// ids (`chen`, `a`). A custom identity (two masters both called `localhost`) stays as it is,
    /// and anything else (`store`, an unknown id) too.
    pub fn handle(&self, id_or_identity: &str) -> String {
        if self.fable != Fable::Lantern {
            return id_or_identity.to_owned();
        }
        let default_identity = self.identities.iter().position(|(id, identity)| id == identity && id == id_or_identity);
        match default_identity.and_then(|i| LANTERN_CAST.get(i)) {
            Some([en, _]) => slug(en),
            None => id_or_identity.to_owned(),
        }
    }

    /// A write's operation id as the fable's systems print it: the engine numbers a node's writes
    /// `<node id>-<n>` (`engine::node`), so under the lantern the node's part is its handle
    /// (`chen-8` is `a-xiu-8`). Any other id (a raw write's own) is shown as it is.
    pub fn op_handle(&self, op_id: &str) -> String {
        match op_id.rsplit_once('-') {
            Some((node, n))
                if self.fable == Fable::Lantern
                    && !n.is_empty()
                    && n.bytes().all(|b| b.is_ascii_digit())
                    && self.identities.iter().any(|(id, _)| id == node) =>
            {
                format!("{}-{n}", self.handle(node))
            }
            _ => op_id.to_owned(),
        }
    }

    /// The name of node `id` in `lang`; an unknown id is shown as it is.
    pub fn name(&self, id: &str, lang: Lang) -> String {
        self.names
            .iter()
            .find(|(i, _)| i == id)
            .map(|(_, pair)| match lang {
                Lang::En => pair[0].clone(),
                Lang::Zh => pair[1].clone(),
            })
            .unwrap_or_else(|| id.to_owned())
    }
}

fn identities(scenario: &Scenario) -> Vec<(String, String)> {
    scenario.config.nodes.iter().map(|n| (n.id.clone(), n.identity.clone())).collect()
}

/// A name as a process handle: lowercase letters and digits, anything else `-` (`A-Xiu` → `a-xiu`).
fn slug(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect()
}

fn capitalise(id: &str) -> String {
    let mut chars = id.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::library;

    #[test]
    fn harbor_names_come_from_the_fable() {
        let s = library::get("harbor-zombie").expect("exists").expect("parses");
        let cast = Cast::new(&s);
        assert_eq!(cast.name("chen", Lang::En), "Old Chen");
        assert_eq!(cast.name("chen", Lang::Zh), "老陈");
        assert_eq!(cast.name("lin", Lang::Zh), "小林");
        assert_eq!(cast.name("nobody", Lang::En), "nobody");
        assert_eq!(cast.fable(), Fable::Harbor);
    }

    #[test]
    fn the_lantern_names_nodes_in_order_from_its_own_cast() {
        let s = library::get("harbor-zombie").expect("exists").expect("parses");
        let cast = Cast::for_fable(&s, Fable::Lantern);
        assert_eq!(cast.fable(), Fable::Lantern);
        assert_eq!(cast.name("chen", Lang::En), LANTERN_CAST[0][0]);
        assert_eq!(cast.name("lin", Lang::Zh), LANTERN_CAST[1][1]);
        assert_eq!(Cast::for_fable(&s, Fable::Harbor), Cast::new(&s));
        let names: std::collections::HashSet<&str> = LANTERN_CAST.iter().flatten().copied().collect();
        assert_eq!(names.len(), 2 * LANTERN_CAST.len(), "every borrower has a name of their own");
        assert!(LANTERN_CAST.len() >= crate::engine::MAX_NODES, "every node can have a townsperson");
    }

    /// Under the lantern the systems print the townsfolk's handles, never the harbor's ids; a
    /// custom identity stays what the scenario says; the harbor prints ids as they are.
    #[test]
    fn the_lantern_prints_handles_not_harbor_ids() {
        let s = library::get("harbor-zombie").expect("exists").expect("parses");
        let lantern = Cast::for_fable(&s, Fable::Lantern);
        assert_eq!((lantern.handle("chen"), lantern.handle("lin")), ("a-xiu".to_owned(), "smith-wang".to_owned()));
        assert_eq!((lantern.handle("store"), lantern.handle("ghost")), ("store".to_owned(), "ghost".to_owned()));
        assert_eq!(Cast::new(&s).handle("chen"), "chen");
        let twins = library::get("duplicate-identity").expect("exists").expect("parses");
        let lantern = Cast::for_fable(&twins, Fable::Lantern);
        assert_eq!(lantern.handle("localhost"), "localhost", "a name the scenario gave stays");
        let handles: std::collections::HashSet<String> = LANTERN_CAST.iter().map(|[en, _]| slug(en)).collect();
        assert_eq!(handles.len(), LANTERN_CAST.len(), "every townsperson's handle is their own");
    }

    /// A lantern scenario's file names the same townsfolk, so both tellings agree.
    #[test]
    fn lantern_scenarios_name_the_lantern_cast() {
        for id in library::ids() {
            let s = library::get(id).expect("exists").expect("parses");
            if s.fable != Fable::Lantern {
                continue;
            }
            let cast = Cast::for_fable(&s, Fable::Lantern);
            for (node, name) in s.config.nodes.iter().zip(&s.node_names) {
                let name = name.as_ref().unwrap_or_else(|| panic!("{id}: {} has no name", node.id));
                assert_eq!(name.en, cast.name(&node.id, Lang::En), "{id}");
                assert_eq!(name.zh, cast.name(&node.id, Lang::Zh), "{id}");
            }
        }
    }
}
