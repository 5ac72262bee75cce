//! One stable sort for every list the simulation and its views put in order.
//!
//! Go sorts with `sort.Sort` / `sort.SliceStable` and one comparison per call site. Rust's
//! `slice::sort_by` is generic over the element and the comparison, so each call site gets its
//! own copy of the standard library's sort (about 4 KB of wasm each, before compression; eleven of
//! them cost the app's module about 50 KB: BENCHMARKS.md, "One sort"). Here every call sorts
//! positions (`usize`) with the comparison behind a `&dyn Fn`, so the module holds one copy of the
//! standard sort, and only the small permutation below is generic.
//!
//! Worked example: ReplicaSets `[b(rev 2), a(rev 1), c(rev 2)]` by revision: positions `[0, 1, 2]`
//! sort to `[1, 0, 2]` (stable: b stays before c), and the list becomes `[a, b, c]`.

use std::cmp::Ordering;

/// Sorts `items` by `cmp`, stably (equal items keep their order), like `slice::sort_by`.
pub fn sort_by<T>(items: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    let mut order: Vec<usize> = (0..items.len()).collect();
    sort_positions(&mut order, &|a, b| cmp(&items[a], &items[b]));
    permute(items, &order);
}

/// Sorts `items` by a key, stably, like `slice::sort_by_key`.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// The one monomorphic sort: positions ordered by a comparison of the items at them.
fn sort_positions(order: &mut [usize], cmp: &dyn Fn(usize, usize) -> Ordering) {
    order.sort_by(|&a, &b| cmp(a, b));
}

/// Rearranges `items` in place so that `items[i]` is what was at `order[i]`.
///
/// For each `i`, the element that belongs there started at `order[i]`; if that position is
/// before `i`, it was swapped away earlier, and following `order` from it finds where it went.
/// With `order = [2, 0, 1]` on `[x, y, z]`: i=0 swaps with 2 → `[z, y, x]`; i=1: order[1]=0 < 1,
/// order[0]=2 → swap 1 and 2 → `[z, x, y]`; i=2: order[2]=1 < 2 → order[1]=0 < 2 → order[0]=2
/// → swap 2 with 2. Result `[z, x, y]` = `[items[2], items[0], items[1]]`.
fn permute<T>(items: &mut [T], order: &[usize]) {
    for i in 0..order.len() {
        let mut j = order[i];
        while j < i {
            j = order[j];
        }
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pseudo-random pairs (key, original index) from a small linear congruential generator.
    fn pairs(seed: u64, n: usize, keys: u64) -> Vec<(u64, usize)> {
        let mut x = seed;
        (0..n)
            .map(|i| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((x >> 33) % keys, i)
            })
            .collect()
    }

    #[test]
    fn sorts_like_the_standard_stable_sort() {
        for seed in 0..200 {
            for n in [0, 1, 2, 3, 7, 20, 64] {
                let mut ours = pairs(seed, n, 5);
                let mut std = ours.clone();
                sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
                std.sort_by_key(|a| a.0);
                assert_eq!(ours, std, "seed {seed}, n {n}");
            }
        }
    }

    #[test]
    fn sort_by_key_keeps_equal_keys_in_order() {
        let mut v = vec![("b", 2), ("a", 1), ("c", 2), ("d", 1)];
        sort_by_key(&mut v, |x| x.1);
        assert_eq!(v, vec![("a", 1), ("d", 1), ("b", 2), ("c", 2)]);
    }

    #[test]
    fn the_worked_examples_hold() {
        let mut v = ['x', 'y', 'z'];
        permute(&mut v, &[2, 0, 1]);
        assert_eq!(v, ['z', 'x', 'y']);
        let mut rs = [("b", 2), ("a", 1), ("c", 2)];
        sort_by_key(&mut rs, |r| r.1);
        assert_eq!(rs, [("a", 1), ("b", 2), ("c", 2)]);
    }
}
