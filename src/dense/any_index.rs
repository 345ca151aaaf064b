//! A bundle's dense index in either of its layouts: whole (`DenseIndex`, one file, searched
//! exactly or through its graph) or in parts (`PartitionedIndex`, whose parts a question's
//! vector names). Search takes either; only the parts need fetching per question.

use super::partitioned::PartitionedIndex;
use super::DenseIndex;

pub enum AnyDenseIndex {
    Whole(DenseIndex),
    Parts(PartitionedIndex),
}

impl AnyDenseIndex {
    /// Item ids are below this.
    pub fn item_count(&self) -> usize {
        match self {
            AnyDenseIndex::Whole(index) => index.item_count(),
            AnyDenseIndex::Parts(index) => index.item_count(),
        }
    }

    pub fn dims(&self) -> usize {
        match self {
            AnyDenseIndex::Whole(index) => index.dims(),
            AnyDenseIndex::Parts(index) => index.dims(),
        }
    }

    /// The index in parts, to attach parts to (`None` when whole).
    pub fn parts_mut(&mut self) -> Option<&mut PartitionedIndex> {
        match self {
            AnyDenseIndex::Whole(_) => None,
            AnyDenseIndex::Parts(index) => Some(index),
        }
    }

    pub fn parts(&self) -> Option<&PartitionedIndex> {
        match self {
            AnyDenseIndex::Whole(_) => None,
            AnyDenseIndex::Parts(index) => Some(index),
        }
    }
}
