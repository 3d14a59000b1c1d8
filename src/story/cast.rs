//! Who is who: the display names of a scenario's nodes in each language, for the fable that
//! tells the run.
//!
//! A fable takes its names from the scenario file, or gives the nodes its own cast
//! ([`crate::fables::Definition::cast`]: the lantern's Nantang townsfolk), in node order, so any
//! scenario can be told by it without another fable's names wandering in.

use crate::engine::StoreKind;
use crate::scenario::Scenario;
use crate::vocab::Fable;
use crate::vocab::Lang;

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
    /// The cast of the scenario's own fable ([`Cast::for_fable`] with `scenario.fable`).
    pub fn new(scenario: &Scenario) -> Self {
        Self::for_fable(scenario, scenario.fable)
    }

    /// The cast that tells `scenario` as `fable`: the fable's own cast, node `i` played by its
    /// `i`-th person whatever the file calls the node; or, for a fable without one, the names the
    /// file gives (a node without a `name` is shown by its id, capitalised). A node beyond the
    /// fable's cast is shown by its id.
    pub fn for_fable(scenario: &Scenario, fable: Fable) -> Self {
        let own = fable.def().cast;
        let names = scenario
            .config
            .nodes
            .iter()
            .enumerate()
            .zip(&scenario.node_names)
            .map(|((i, node), name)| {
                let pair = match (own, name) {
                    (Some(cast), _) => match cast.get(i) {
                        Some([en, zh]) => [(*en).to_owned(), (*zh).to_owned()],
                        None => [capitalise(&node.id), capitalise(&node.id)],
                    },
                    (None, Some(n)) => [n.en.clone(), n.zh.clone()],
                    (None, None) => {
                        let shown = capitalise(&node.id);
                        [shown.clone(), shown]
                    }
                };
                (node.id.clone(), pair)
            })
            .collect();
        Self {
            names,
            identities: identities(scenario),
            renew_deadline_ms: scenario.config.lease.renew_deadline_ms,
            fable,
            store: scenario.config.store_kind,
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
    /// Under a fable with a cast of its own, a node that kept the default identity (its id) goes
    /// by its person's handle (the lantern's `a-xiu`, `smith-wang`, …), so the fable's technical
    /// view never shows the file's ids (`chen`, `a`). A custom identity (two masters both called
    /// `localhost`) stays as it is, and anything else (`store`, an unknown id) too.
    pub fn handle(&self, id_or_identity: &str) -> String {
        let Some(own) = self.fable.def().cast else {
            return id_or_identity.to_owned();
        };
        let default_identity = self.identities.iter().position(|(id, identity)| id == identity && id == id_or_identity);
        match default_identity.and_then(|i| own.get(i)) {
            Some([en, _]) => slug(en),
            None => id_or_identity.to_owned(),
        }
    }

    /// A write's operation id as the fable's systems print it: the engine numbers a node's writes
    /// `<node id>-<n>` (`engine::node`), so under a fable with its own cast the node's part is its
    /// handle (the lantern's `chen-8` is `a-xiu-8`). Any other id (a raw write's own) is shown as
    /// it is.
    pub fn op_handle(&self, op_id: &str) -> String {
        match op_id.rsplit_once('-') {
            Some((node, n))
                if self.fable.def().cast.is_some()
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

    /// A fable without a cast of its own takes the file's names, and prints ids as they are.
    #[test]
    fn names_come_from_the_file_unless_the_fable_has_a_cast() {
        let s = library::get("harbor-zombie").expect("exists").expect("parses");
        for fable in Fable::all() {
            let cast = Cast::for_fable(&s, fable);
            assert_eq!(cast.fable(), fable);
            assert_eq!(cast.name("nobody", Lang::En), "nobody");
            match fable.def().cast {
                None => {
                    assert_eq!(cast.name("chen", Lang::En), "Old Chen");
                    assert_eq!(cast.name("chen", Lang::Zh), "老陈");
                    assert_eq!(cast.name("lin", Lang::Zh), "小林");
                    assert_eq!(cast.handle("chen"), "chen");
                }
                Some(own) => {
                    assert_eq!(cast.name("chen", Lang::En), own[0][0]);
                    assert_eq!(cast.name("lin", Lang::Zh), own[1][1]);
                    assert_eq!(cast.handle("chen"), slug(own[0][0]));
                    assert_eq!((cast.handle("store"), cast.handle("ghost")), ("store".to_owned(), "ghost".to_owned()));
                }
            }
        }
        assert_eq!(Cast::new(&s), Cast::for_fable(&s, s.fable));
    }

    /// A fable's own cast has a name for every node the format allows, each its own, and a handle
    /// of its own; a custom identity stays what the scenario says.
    #[test]
    fn a_fables_own_cast_is_whole() {
        let twins = library::get("duplicate-identity").expect("exists").expect("parses");
        for fable in Fable::all() {
            let Some(own) = fable.def().cast else { continue };
            let names: std::collections::HashSet<&str> = own.iter().flatten().copied().collect();
            assert_eq!(names.len(), 2 * own.len(), "{fable:?}: every person has a name of their own");
            assert!(own.len() >= crate::engine::MAX_NODES, "{fable:?}: every node can have a person");
            let handles: std::collections::HashSet<String> = own.iter().map(|[en, _]| slug(en)).collect();
            assert_eq!(handles.len(), own.len(), "{fable:?}: every handle is its own");
            let cast = Cast::for_fable(&twins, fable);
            assert_eq!(cast.handle("localhost"), "localhost", "a name the scenario gave stays");
        }
    }

    /// A scenario told by its own fable names that fable's cast in its file, so both agree.
    #[test]
    fn scenarios_of_a_fable_with_a_cast_name_that_cast() {
        for id in library::ids() {
            let s = library::get(id).expect("exists").expect("parses");
            if s.fable.def().cast.is_none() {
                continue;
            }
            let cast = Cast::new(&s);
            for (node, name) in s.config.nodes.iter().zip(&s.node_names) {
                let name = name.as_ref().unwrap_or_else(|| panic!("{id}: {} has no name", node.id));
                assert_eq!(name.en, cast.name(&node.id, Lang::En), "{id}");
                assert_eq!(name.zh, cast.name(&node.id, Lang::Zh), "{id}");
            }
        }
    }
}
