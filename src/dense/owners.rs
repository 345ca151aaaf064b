//! Several vectors per item: a chunk longer than the model's 256 word pieces is embedded as
//! overlapping windows, and scores as its best window. The vectors of one item are stored
//! consecutively; `Owners` maps each vector to its item and back.

use super::DenseError;
use std::ops::Range;

#[derive(Clone, Debug, PartialEq)]
pub struct Owners {
    /// Item of each vector: starts at 0 and rises by 0 or 1 from one vector to the next.
    of_vector: Vec<u32>,
    /// First vector of each item, plus the vector count at the end.
    starts: Vec<u32>,
}

impl Owners {
    /// From the number of vectors of each item (each at least 1).
    pub fn from_counts(counts: &[usize]) -> Result<Self, DenseError> {
        let mut of_vector = Vec::with_capacity(counts.iter().sum());
        for (item, &n) in counts.iter().enumerate() {
            if n == 0 {
                return Err(DenseError::InvalidConfig("every item needs at least one vector"));
            }
            let item = u32::try_from(item).map_err(|_| DenseError::InvalidConfig("too many items"))?;
            of_vector.extend(std::iter::repeat_n(item, n));
        }
        Self::from_vector_owners(of_vector)
    }

    /// From each vector's item, as stored; refuses anything but consecutive runs from item 0.
    pub fn from_vector_owners(of_vector: Vec<u32>) -> Result<Self, DenseError> {
        let mut starts = Vec::new();
        for (v, &item) in of_vector.iter().enumerate() {
            let expected_new = starts.len() as u32;
            if item == expected_new {
                starts.push(v as u32);
            } else if item + 1 != expected_new {
                return Err(DenseError::InvalidHeader("its vector owners are not consecutive items from 0"));
            }
        }
        if of_vector.is_empty() {
            return Err(DenseError::NoVectors);
        }
        starts.push(of_vector.len() as u32);
        Ok(Owners { of_vector, starts })
    }

    pub fn item_count(&self) -> usize {
        self.starts.len() - 1
    }

    pub fn item_of(&self, vector: u32) -> Option<u32> {
        self.of_vector.get(vector as usize).copied()
    }

    pub fn vectors_of(&self, item: u32) -> Option<Range<u32>> {
        let start = *self.starts.get(item as usize)?;
        let end = *self.starts.get(item as usize + 1)?;
        Some(start..end)
    }

    pub fn raw(&self) -> &[u32] {
        &self.of_vector
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_vectors_to_items_and_back() {
        let owners = Owners::from_counts(&[1, 3, 2]).unwrap();
        assert_eq!(owners.raw(), [0, 1, 1, 1, 2, 2]);
        assert_eq!(owners.item_count(), 3);
        assert_eq!(owners.vectors_of(1), Some(1..4));
        assert_eq!(owners.vectors_of(3), None);
        assert_eq!(owners.item_of(5), Some(2));
        assert_eq!(Owners::from_vector_owners(vec![0, 1, 1, 1, 2, 2]).unwrap(), owners);
    }

    #[test]
    fn refuses_gaps_disorder_and_empty_items() {
        assert!(Owners::from_vector_owners(vec![0, 2]).is_err());
        assert!(Owners::from_vector_owners(vec![1, 1]).is_err());
        assert!(Owners::from_vector_owners(vec![0, 1, 0]).is_err());
        assert!(Owners::from_vector_owners(vec![]).is_err());
        assert!(Owners::from_counts(&[1, 0, 1]).is_err());
    }
}
