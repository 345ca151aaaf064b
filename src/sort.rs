//! One stable sort for the whole core. The standard sorts are generic over the element type
//! and the comparison closure, so every `sort_by` call site compiled its own copy of them
//! (3–8 KB of wasm each; the sorts were a sixth of the search module's code, BENCHMARKS.md
//! "The search box's first bytes"). Here the order is found once, over positions, with the
//! comparison behind a `dyn`: one copy of the standard stable sort, whatever is sorted, and
//! exactly the order `slice::sort_by` gives (a stable sort's order is unique).

use std::cmp::Ordering;

/// Sorts `items` stably by `compare`, as `slice::sort_by` does.
pub fn sort_by<T>(items: &mut Vec<T>, compare: impl Fn(&T, &T) -> Ordering) {
    let order = stable_order(items.len(), &|a, b| compare(&items[a], &items[b]));
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(order.into_iter().filter_map(|i| slots[i].take()));
}

/// Sorts `items` and removes repeats, as `sort_unstable` then `dedup` do: under a total order
/// (`Ord`) every sort gives the same result, so the core's one sort serves here too.
pub fn sort_dedup<T: Ord>(items: &mut Vec<T>) {
    sort_by(items, T::cmp);
    items.dedup();
}

/// Sorts `items` stably by `key`, as `slice::sort_by_key` does.
pub fn sort_by_key<T, K: Ord>(items: &mut Vec<T>, key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// The positions `0..len` in the stable order `compare` (of two positions) gives them.
#[inline(never)]
fn stable_order(len: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_as_the_standard_stable_sort() {
        let mut state = 7u32;
        let mut next = move || {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (state >> 16) % 13
        };
        for len in [0, 1, 2, 5, 20, 33, 200] {
            let items: Vec<(u32, usize)> = (0..len).map(|i| (next(), i)).collect();
            let mut ours = items.clone();
            let mut theirs = items.clone();
            // Only the first field is compared: equal keys must keep their order.
            sort_by(&mut ours, |a, b| b.0.cmp(&a.0));
            theirs.sort_by_key(|x| std::cmp::Reverse(x.0));
            assert_eq!(ours, theirs, "len {len}");
            let mut ours = items.clone();
            let mut theirs = items;
            sort_by_key(&mut ours, |x| x.0 % 4);
            theirs.sort_by_key(|x| x.0 % 4);
            assert_eq!(ours, theirs, "len {len}, by key");
        }
    }

    #[test]
    fn moves_owned_values() {
        let mut words: Vec<String> = ["pear", "fig", "apple", "kiwi"].map(String::from).to_vec();
        sort_by_key(&mut words, |w| w.len());
        assert_eq!(words, ["fig", "pear", "kiwi", "apple"]);
    }
}
