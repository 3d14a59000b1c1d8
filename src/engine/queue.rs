//! The run's agenda and a small set of names, kept in sorted vectors.
//!
//! The engine needs a priority queue keyed by `(at_ms, seq)` and sets of op ids and node ids.
//! They hold tens of items, so a sorted `Vec` is as fast as a B-tree here, and it keeps the
//! B-tree's code (about 18 KB of wasm for the two instantiations the engine used) out of the
//! page (issue 14's budget).

/// Pending items ordered by key, the smallest first. Keys are unique (`seq` grows).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Agenda<T> {
    /// Sorted by key, largest first, so that taking the next item pops the end.
    items: Vec<((u64, u64), T)>,
}

impl<T> Default for Agenda<T> {
    fn default() -> Self {
        Self { items: Vec::new() }
    }
}

impl<T> Agenda<T> {
    /// Adds `item` under `key` (a key already present is replaced).
    pub fn insert(&mut self, key: (u64, u64), item: T) {
        match self.items.binary_search_by(|(k, _)| key.cmp(k)) {
            Ok(i) => self.items[i].1 = item,
            Err(i) => self.items.insert(i, (key, item)),
        }
    }

    /// The smallest key.
    pub fn first_key(&self) -> Option<(u64, u64)> {
        self.items.last().map(|(k, _)| *k)
    }

    /// Takes the item with the smallest key if that key's time is `< limit_ms`.
    pub fn pop_before(&mut self, limit_ms: u64) -> Option<((u64, u64), T)> {
        if self.first_key()?.0 < limit_ms {
            self.items.pop()
        } else {
            None
        }
    }

    /// Every item, smallest key first.
    pub fn iter(&self) -> impl Iterator<Item = (&(u64, u64), &T)> {
        self.items.iter().rev().map(|(k, v)| (k, v))
    }

    /// Removes the item under `key`, if any.
    pub fn remove(&mut self, key: &(u64, u64)) {
        if let Ok(i) = self.items.binary_search_by(|(k, _)| key.cmp(k)) {
            self.items.remove(i);
        }
    }

    /// Drops everything.
    pub fn clear(&mut self) {
        self.items.clear();
    }
}

/// Sorts `items` by `key`, stably (equal keys keep their order). Every caller shares one
/// instantiation of the standard sort, over `(key, index)` pairs, instead of one per item type
/// (about 3 KB of wasm each).
pub fn sort_by_keys<T>(items: &mut Vec<T>, key: impl Fn(&T) -> (u64, u64)) {
    let mut keyed: Vec<((u64, u64), usize)> = items.iter().enumerate().map(|(i, t)| (key(t), i)).collect();
    // (key, index) pairs are all different, so an unstable sort orders them as a stable one would.
    keyed.sort_unstable();
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(keyed.iter().filter_map(|(_, i)| slots.get_mut(*i).and_then(Option::take)));
}

/// A set of names (op ids, node ids), sorted; serialized as the sorted list, as a `BTreeSet`.
///
/// Shared between clones until one of them changes it (copy on write), and hashed by a digest
/// kept as names come and go: the sets of op ids grow with every write a run makes, and a
/// search (`engine::search`) clones and hashes the whole run at every step it branches.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Names {
    names: std::sync::Arc<Vec<String>>,
    /// The wrapping sum of each name's FNV-1a hash: the same for the same set, however built.
    digest: u64,
}

/// One name's share of [`Names::digest`].
fn name_digest(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

impl std::hash::Hash for Names {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.names.len() as u64);
        state.write_u64(self.digest);
    }
}

impl serde::Serialize for Names {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.names.as_slice().serialize(serializer)
    }
}

impl Names {
    /// Adds `name`; returns whether it was new.
    pub fn insert(&mut self, name: &str) -> bool {
        match self.names.binary_search_by(|n| n.as_str().cmp(name)) {
            Ok(_) => false,
            Err(i) => {
                std::sync::Arc::make_mut(&mut self.names).insert(i, name.to_owned());
                self.digest = self.digest.wrapping_add(name_digest(name));
                true
            }
        }
    }

    /// Removes `name`; returns whether it was there.
    pub fn remove(&mut self, name: &str) -> bool {
        match self.names.binary_search_by(|n| n.as_str().cmp(name)) {
            Ok(i) => {
                std::sync::Arc::make_mut(&mut self.names).remove(i);
                self.digest = self.digest.wrapping_sub(name_digest(name));
                true
            }
            Err(_) => false,
        }
    }

    pub fn contains(&self, name: &str) -> bool {
        self.names.binary_search_by(|n| n.as_str().cmp(name)).is_ok()
    }

    pub fn clear(&mut self) {
        *self = Self::default();
    }

    /// The names in order.
    pub fn iter(&self) -> impl Iterator<Item = &String> {
        self.names.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_agenda_gives_the_smallest_key_first() {
        let mut a = Agenda::default();
        for (k, v) in [((5, 1), 'a'), ((2, 7), 'b'), ((5, 0), 'c'), ((9, 3), 'd')] {
            a.insert(k, v);
        }
        assert_eq!(a.first_key(), Some((2, 7)));
        assert_eq!(a.iter().map(|(_, v)| *v).collect::<String>(), "bcad");
        a.remove(&(5, 0));
        assert_eq!(a.pop_before(3), Some(((2, 7), 'b')));
        assert_eq!(a.pop_before(5), None, "the next is at 5, not before");
        assert_eq!(a.pop_before(6), Some(((5, 1), 'a')));
        a.clear();
        assert_eq!(a.first_key(), None);
    }

    #[test]
    fn sorting_by_keys_is_stable() {
        let mut v = vec![(3, 'a'), (1, 'b'), (3, 'c'), (0, 'd'), (1, 'e')];
        sort_by_keys(&mut v, |(k, _)| (*k, 0));
        assert_eq!(v.iter().map(|(_, c)| *c).collect::<String>(), "dbeac");
    }

    #[test]
    fn names_are_a_set() {
        let mut n = Names::default();
        assert!(n.insert("b") && n.insert("a") && !n.insert("b"));
        assert!(n.contains("a") && !n.contains("c"));
        assert_eq!(n.iter().cloned().collect::<Vec<_>>(), ["a", "b"]);
        assert!(n.remove("a") && !n.remove("a"));
        n.clear();
        assert_eq!(n.iter().count(), 0);
    }
}
