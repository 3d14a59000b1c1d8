//! Who is who: the display names of a scenario's nodes in each language.

use super::i18n::Lang;
use crate::scenario::Scenario;

/// Display names for one scenario's nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cast {
    /// `(id, [en, zh])` in node order.
    names: Vec<(String, [String; 2])>,
    renew_deadline_ms: u64,
}

impl Cast {
    /// Names from the scenario file; a node without a `name` is shown by its id, capitalised.
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
        Self { names, renew_deadline_ms: scenario.config.lease.renew_deadline_ms }
    }

    /// The scenario's renew deadline, in ms (narration quotes it).
    pub fn renew_deadline_ms(&self) -> u64 {
        self.renew_deadline_ms
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
    }
}
