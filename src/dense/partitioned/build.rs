//! The writer: from items' vectors to a head and parts.
//!
//! 1. Each distinct section (an item that is its own first copy) contributes its vectors
//!    once; copies add only their version to the section's version set.
//! 2. Sections are grouped by version set, and a group too small for a partition of its own
//!    joins the group it shares most versions with, so a question filtered to one version
//!    only probes partitions that serve that version.
//! 3. Each group is cut into partitions by spherical k-means; the centroids go to the head.
//! 4. A 4-bit product quantiser learns the residuals to the centroids; every vector's code
//!    goes to its partition's codes part (the first round).
//! 5. Each partition's rows are split into shards of similar vectors by recursive halving
//!    along their principal direction, so a question's best candidates share few shards;
//!    each shard's int8 rows are a part (the second round).

use std::collections::HashMap;

use super::config::{PartitionedConfig, MAX_SMALL};
use super::format::{
    write_rows_part, Centroids, CodesPart, Fnv, Head, PartFile, PartitionInfo, PARTITIONED_FORMAT_VERSION,
};
use super::kmeans::{assign, KMeans, Rows};
use super::pq::ProductQuantizer;
use crate::dense::dot::dot_f32;
use crate::dense::quantized::{QuantizedVectors, MAX_VECTORS};
use crate::dense::rng::Rng;
use crate::dense::DenseError;

/// What a partitioned index is built from.
pub struct PartitionedInput<'a, V: AsRef<[f32]>> {
    /// The unit-length vectors of each item (chunk) in item order: one, or one per window of
    /// a long section. Only the vectors of items that are their own first copy are read.
    pub items: &'a [Vec<V>],
    /// The first item with the same content as each item (itself when it is the first), as
    /// the chunk table's copies say; empty when no section repeats.
    pub first_copy: &'a [u32],
    /// Each item's version slot, numbered as the chunk table's runs number versions (0: no
    /// version, v + 1: version v); empty when the site has no versions.
    pub version_slots: &'a [u16],
}

/// A built index: the head every reader fetches at open, and the parts by part id.
pub struct PartitionedFiles {
    pub head: Vec<u8>,
    pub parts: Vec<Vec<u8>>,
}

/// Statistics of a build, for benchmarks and the build's log.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BuildStats {
    pub items: usize,
    /// Vectors stored (copies not counted).
    pub rows: usize,
    /// Vectors not stored because their item is a copy.
    pub copy_rows_skipped: usize,
    pub version_groups: usize,
    pub partitions: usize,
    pub shards: usize,
    pub largest_partition: usize,
}

struct Partition {
    /// The centroid as a reader sees it (dequantised int8).
    centroid: Vec<f32>,
    rows: Vec<usize>,
    slots: Vec<u8>,
}

/// Builds a partitioned index.
pub fn build<V: AsRef<[f32]>>(
    input: &PartitionedInput<'_, V>,
    config: &PartitionedConfig,
) -> Result<(PartitionedFiles, BuildStats), DenseError> {
    let items = input.items.len();
    if items == 0 {
        return Err(DenseError::NoVectors);
    }
    if items > MAX_VECTORS {
        return Err(DenseError::TooManyVectors { count: items, max: MAX_VECTORS });
    }
    let first_copy = |i: usize| input.first_copy.get(i).map_or(i, |&f| f as usize);
    if !input.first_copy.is_empty() && input.first_copy.len() != items {
        return Err(DenseError::InvalidConfig("first_copy must name one item per item, or be empty"));
    }
    if !input.version_slots.is_empty() && input.version_slots.len() != items {
        return Err(DenseError::InvalidConfig("version_slots must give one slot per item, or be empty"));
    }
    if (0..items).any(|i| first_copy(i) > i || first_copy(first_copy(i)) != first_copy(i)) {
        return Err(DenseError::InvalidConfig(
            "an item's first copy must be an earlier item that is its own first copy",
        ));
    }
    if input.version_slots.iter().any(|&s| s as usize >= MAX_SMALL) {
        return Err(DenseError::InvalidConfig("version slots must be below 65535"));
    }
    let slot_of = |i: usize| input.version_slots.get(i).copied().unwrap_or(0);
    let version_slots = input.version_slots.iter().max().map_or(1, |&s| s as usize + 1);
    let slot_bytes = version_slots.div_ceil(8);

    // 1. Rows: the vectors of every first copy, in item order.
    let mut row_item: Vec<u32> = Vec::new();
    let mut row_refs: Vec<&[f32]> = Vec::new();
    let mut stats = BuildStats { items, ..BuildStats::default() };
    for (i, vectors) in input.items.iter().enumerate() {
        if first_copy(i) != i {
            stats.copy_rows_skipped += vectors.len();
            continue;
        }
        if vectors.is_empty() {
            return Err(DenseError::InvalidConfig("every item that is its own first copy needs a vector"));
        }
        for v in vectors {
            row_item.push(i as u32);
            row_refs.push(v.as_ref());
        }
    }
    let quantized = QuantizedVectors::quantize(&row_refs)?;
    let dims = quantized.dims();
    config.validate(dims)?;
    let rows = row_refs.len();
    stats.rows = rows;

    // 2. Version sets of sections, then groups of rows by version set.
    let mut section_slots: HashMap<usize, Vec<u8>> = HashMap::new();
    for i in 0..items {
        let slot = slot_of(i) as usize;
        let set = section_slots.entry(first_copy(i)).or_insert_with(|| vec![0; slot_bytes]);
        set[slot / 8] |= 1 << (slot % 8);
    }
    let mut groups: Vec<(Vec<u8>, Vec<usize>)> = Vec::new();
    let mut group_of_set: HashMap<Vec<u8>, usize> = HashMap::new();
    for (row, &item) in row_item.iter().enumerate() {
        // Every row's item is a first copy, so it has a set; slot 0 stands in otherwise.
        let set = section_slots.get(&(item as usize)).cloned().unwrap_or_else(|| {
            let mut set = vec![0; slot_bytes];
            set[0] = 1;
            set
        });
        let g = *group_of_set.entry(set.clone()).or_insert_with(|| {
            groups.push((set, Vec::new()));
            groups.len() - 1
        });
        groups[g].1.push(row);
    }
    merge_small_groups(&mut groups, config.partition_size);
    stats.version_groups = groups.len();

    // 3. Partitions: spherical k-means within each group; the centroids are then stored
    //    (int8, or 4-bit codes for many), and rows are assigned to the nearest stored one,
    //    so residuals and probing match what a reader sees.
    let mut trained: Vec<(usize, Vec<f32>)> = Vec::new(); // (group, centroid)
    for (g, (_, members)) in groups.iter().enumerate() {
        let data: Vec<f32> = members.iter().flat_map(|&r| row_refs[r].iter().copied()).collect();
        let kmeans = KMeans {
            k: members.len().div_ceil(config.partition_size),
            iterations: config.kmeans_iterations,
            sample_per_centroid: 64,
            spherical: true,
            seed: config.seed ^ (g as u64).wrapping_mul(0xA24B_AED4_963E_E407),
        };
        trained.extend(kmeans.train(&Rows { data: &data, dims }).chunks_exact(dims).map(|c| (g, c.to_vec())));
    }
    let all: Vec<f32> = trained.iter().flat_map(|(_, c)| c.iter().copied()).collect();
    let stored = encode_centroids(&all, dims, config)?;
    let mut partitions: Vec<Partition> = Vec::new();
    let mut kept: Vec<usize> = Vec::new(); // stored centroid of each kept partition
    for (g, (slots, members)) in groups.iter().enumerate() {
        let ids: Vec<usize> = (0..trained.len()).filter(|&c| trained[c].0 == g).collect();
        let decoded: Vec<f32> = ids.iter().flat_map(|&c| stored.decoded(c)).collect();
        let data: Vec<f32> = members.iter().flat_map(|&r| row_refs[r].iter().copied()).collect();
        let assigned = assign(&Rows { data: &data, dims }, &Rows { data: &decoded, dims });
        let mut members_of: Vec<Vec<usize>> = vec![Vec::new(); ids.len()];
        for (at, (c, _)) in assigned.into_iter().enumerate() {
            members_of[c].push(members[at]);
        }
        for (c, rows) in members_of.into_iter().enumerate() {
            if !rows.is_empty() {
                partitions.push(Partition {
                    centroid: decoded[c * dims..(c + 1) * dims].to_vec(),
                    rows,
                    slots: slots.clone(),
                });
                kept.push(ids[c]);
            }
        }
    }
    stats.partitions = partitions.len();
    stats.largest_partition = partitions.iter().map(|p| p.rows.len()).max().unwrap_or(0);

    // 4. The quantiser, trained on residuals of a sample of rows.
    let mut rng = Rng::new(config.seed ^ 0x5EED);
    let sample = 32_768.min(rows);
    let mut residuals = Vec::with_capacity(sample * dims);
    let owner: Vec<usize> = {
        let mut owner = vec![0; rows];
        for (p, partition) in partitions.iter().enumerate() {
            partition.rows.iter().for_each(|&r| owner[r] = p);
        }
        owner
    };
    for _ in 0..sample {
        let r = rng.below(rows);
        let centroid = &partitions[owner[r]].centroid;
        residuals.extend(row_refs[r].iter().zip(centroid).map(|(x, c)| x - c));
    }
    let pq = ProductQuantizer::train(&Rows { data: &residuals, dims }, config.subspaces, config.seed);

    // 5. Shards, codes and rows.
    let mut codes_parts = Vec::with_capacity(partitions.len());
    let mut shard_vectors: Vec<QuantizedVectors> = Vec::new();
    let mut infos = Vec::with_capacity(partitions.len());
    let mut next_shard_part = partitions.len() as u64;
    for partition in &mut partitions {
        let sizes = order_into_shards(&mut partition.rows, &row_refs, config.shard_size);
        let mut shard_starts = Vec::with_capacity(sizes.len() + 1);
        let mut at = 0usize;
        for &size in &sizes {
            shard_starts.push(at as u32);
            // Rows of one shard in item order: their items' differences stay small.
            partition.rows[at..at + size].sort_unstable();
            at += size;
        }
        shard_starts.push(at as u32);
        let mut codes = Vec::with_capacity(partition.rows.len() * pq.code_len());
        let mut residual = vec![0f32; dims];
        for &r in &partition.rows {
            for ((out, x), c) in residual.iter_mut().zip(row_refs[r]).zip(&partition.centroid) {
                *out = x - c;
            }
            pq.encode(&residual, &mut codes);
        }
        let items_of_rows = partition.rows.iter().map(|&r| row_item[r]).collect();
        let shard_files = vec![PartFile { bytes: 0, sha256_prefix: [0; 16] }; sizes.len()];
        codes_parts.push(CodesPart { shard_starts: shard_starts.clone(), items: items_of_rows, codes, shard_files });
        for pair in shard_starts.windows(2) {
            let shard_rows = &partition.rows[pair[0] as usize..pair[1] as usize];
            let mut shard_codes = Vec::with_capacity(shard_rows.len() * dims);
            let mut scales = Vec::with_capacity(shard_rows.len());
            for &r in shard_rows {
                let (c, s) = quantized.row(r as u32);
                shard_codes.extend_from_slice(c);
                scales.push(s);
            }
            shard_vectors.push(QuantizedVectors::from_parts(dims, shard_codes, scales));
        }
        if next_shard_part + sizes.len() as u64 > u64::from(u32::MAX) {
            return Err(DenseError::TooManyVectors { count: rows, max: MAX_VECTORS });
        }
        infos.push(PartitionInfo {
            rows: partition.rows.len() as u32,
            shards: sizes.len() as u32,
            first_shard_part: next_shard_part as u32,
            slots: partition.slots.clone(),
        });
        next_shard_part += sizes.len() as u64;
    }
    stats.shards = shard_vectors.len();

    let version = PARTITIONED_FORMAT_VERSION;
    let mut head = Head {
        version,
        build_id: 0,
        dims,
        items: items as u32,
        rows: rows as u32,
        version_slots: version_slots as u16,
        probe: config.probe,
        rescore: config.rescore,
        pq,
        centroids: keep_centroids(stored, &kept, dims),
        partitions: infos,
        files: vec![PartFile { bytes: 0, sha256_prefix: [0; 16] }; codes_parts.len()],
    };
    // The build id: a hash of everything written, with the id fields and the part files'
    // listings still 0.
    let mut fnv = Fnv::new();
    fnv.update(&head.write());
    let mut out = Vec::new();
    for (p, codes) in codes_parts.iter().enumerate() {
        out.clear();
        codes.write(version, 0, p as u32, &mut out);
        fnv.update(&out);
    }
    let mut rows_parts: Vec<Vec<u8>> = Vec::with_capacity(shard_vectors.len());
    for (s, vectors) in shard_vectors.iter().enumerate() {
        let mut out = Vec::new();
        write_rows_part(vectors, version, 0, (codes_parts.len() + s) as u32, &mut out);
        fnv.update(&out);
        rows_parts.push(out);
    }
    head.build_id = fnv.finish();
    // Then the files, leaves first: each row shard's listing goes into its partition's
    // codes, each codes part's into the head.
    let id = head.build_id.to_le_bytes();
    rows_parts.iter_mut().for_each(|p| p[8..16].copy_from_slice(&id));
    let mut parts: Vec<Vec<u8>> = Vec::with_capacity(codes_parts.len() + rows_parts.len());
    for (p, codes) in codes_parts.iter_mut().enumerate() {
        let first = head.partitions[p].first_shard_part as usize - head.partitions.len();
        let count = head.partitions[p].shards as usize;
        codes.shard_files = rows_parts[first..first + count].iter().map(|bytes| PartFile::of(bytes)).collect();
        let mut out = Vec::new();
        codes.write(version, head.build_id, p as u32, &mut out);
        head.files[p] = PartFile::of(&out);
        parts.push(out);
    }
    parts.extend(rows_parts);
    Ok((PartitionedFiles { head: head.write(), parts }, stats))
}

/// The centroids as the head stores them: int8, or 4-bit codes of `centroid_subspaces` slices.
fn encode_centroids(all: &[f32], dims: usize, config: &PartitionedConfig) -> Result<Centroids, DenseError> {
    let rows: Vec<&[f32]> = all.chunks_exact(dims).collect();
    if config.centroid_subspaces == 0 {
        return Ok(Centroids::Int8(QuantizedVectors::quantize(&rows)?));
    }
    let pq = ProductQuantizer::train(&Rows { data: all, dims }, config.centroid_subspaces, config.seed ^ 0xCE);
    let mut codes = Vec::with_capacity(rows.len() * pq.code_len());
    rows.iter().for_each(|c| pq.encode(c, &mut codes));
    Ok(Centroids::Coded { pq, codes })
}

/// The stored centroids of the partitions kept (those that got rows), in partition order.
fn keep_centroids(stored: Centroids, kept: &[usize], dims: usize) -> Centroids {
    match stored {
        Centroids::Int8(vectors) => {
            let mut codes = Vec::with_capacity(kept.len() * dims);
            let mut scales = Vec::with_capacity(kept.len());
            for &c in kept {
                let (row, scale) = vectors.row(c as u32);
                codes.extend_from_slice(row);
                scales.push(scale);
            }
            Centroids::Int8(QuantizedVectors::from_parts(dims, codes, scales))
        }
        Centroids::Coded { pq, codes } => {
            let len = pq.code_len();
            let codes = kept.iter().flat_map(|&c| codes[c * len..(c + 1) * len].iter().copied()).collect();
            Centroids::Coded { pq, codes }
        }
    }
}

/// Merges each group smaller than `min_rows` into the group it shares most version slots
/// with (the larger on a tie), smallest first, until none is small or one is left.
fn merge_small_groups(groups: &mut Vec<(Vec<u8>, Vec<usize>)>, min_rows: usize) {
    loop {
        let Some(small) = (0..groups.len())
            .filter(|&g| groups[g].1.len() < min_rows)
            .min_by_key(|&g| (groups[g].1.len(), g))
            .filter(|_| groups.len() > 1)
        else {
            return;
        };
        let overlap = |a: &[u8], b: &[u8]| a.iter().zip(b).map(|(x, y)| (x & y).count_ones()).sum::<u32>();
        let Some(target) = (0..groups.len())
            .filter(|&g| g != small)
            .max_by_key(|&g| (overlap(&groups[g].0, &groups[small].0), groups[g].1.len(), std::cmp::Reverse(g)))
        else {
            return;
        };
        let (set, rows) = groups.remove(small);
        let target = if target > small { target - 1 } else { target };
        for (a, b) in groups[target].0.iter_mut().zip(&set) {
            *a |= b;
        }
        groups[target].1.extend(rows);
        groups[target].1.sort_unstable();
    }
}

/// Reorders `rows` so that consecutive runs of at most `shard_size` are groups of similar
/// vectors, and returns the runs' sizes: recursive halving at the median of the projection
/// on the principal direction (a few power iterations), with halves sized so every run ends
/// up between half and all of `shard_size`.
fn order_into_shards(rows: &mut [usize], vectors: &[&[f32]], shard_size: usize) -> Vec<usize> {
    let mut sizes = Vec::new();
    split(rows, vectors, shard_size.max(1), &mut sizes);
    sizes
}

fn split(rows: &mut [usize], vectors: &[&[f32]], shard_size: usize, sizes: &mut Vec<usize>) {
    let n = rows.len();
    if n <= shard_size {
        if n > 0 {
            sizes.push(n);
        }
        return;
    }
    let shards = n.div_ceil(shard_size);
    let left = n * (shards / 2) / shards;
    let dims = vectors[rows[0]].len();
    let mut mean = vec![0f32; dims];
    for &r in rows.iter() {
        mean.iter_mut().zip(vectors[r]).for_each(|(m, x)| *m += x / n as f32);
    }
    // Power iteration on the covariance, from a fixed start: deterministic.
    let mut direction: Vec<f32> = vectors[rows[0]].iter().zip(&mean).map(|(x, m)| x - m + 1e-3).collect();
    let mut centred = vec![0f32; dims];
    for _ in 0..6 {
        let mut next = vec![0f32; dims];
        for &r in rows.iter() {
            centred.iter_mut().zip(vectors[r]).zip(&mean).for_each(|((c, x), m)| *c = x - m);
            let along = dot_f32(&centred, &direction);
            next.iter_mut().zip(&centred).for_each(|(n, c)| *n += along * c);
        }
        let norm = dot_f32(&next, &next).sqrt();
        if norm == 0.0 {
            break;
        }
        direction = next.into_iter().map(|x| x / norm).collect();
    }
    let mut keyed: Vec<(f32, usize)> = rows.iter().map(|&r| (dot_f32(vectors[r], &direction), r)).collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    rows.iter_mut().zip(&keyed).for_each(|(slot, &(_, r))| *slot = r);
    let (low, high) = rows.split_at_mut(left);
    split(low, vectors, shard_size, sizes);
    split(high, vectors, shard_size, sizes);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dense::synthetic::clustered_unit_vectors;

    #[test]
    fn shards_are_between_half_and_full_size_and_cover_every_row() {
        let vectors = clustered_unit_vectors(203, 8, 5, 0.5, 1);
        let refs: Vec<&[f32]> = vectors.iter().map(Vec::as_slice).collect();
        let mut rows: Vec<usize> = (0..203).collect();
        let sizes = order_into_shards(&mut rows, &refs, 16);
        assert_eq!(sizes.iter().sum::<usize>(), 203);
        assert!(sizes.iter().all(|&s| (8..=16).contains(&s)), "{sizes:?}");
        let mut sorted = rows.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..203).collect::<Vec<_>>());
    }

    #[test]
    fn small_groups_join_the_group_sharing_most_versions() {
        let mut groups = vec![
            (vec![0b0110], (0..100).collect()),
            (vec![0b0001], (100..200).collect()),
            (vec![0b0100], vec![200, 201]),
        ];
        merge_small_groups(&mut groups, 10);
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].0, vec![0b0110]);
        assert_eq!(groups[0].1.len(), 102);
        let mut one = vec![(vec![1], vec![0]), (vec![2], vec![1])];
        merge_small_groups(&mut one, 10);
        assert_eq!(one, vec![(vec![3], vec![0, 1])]);
    }
}
