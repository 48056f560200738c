//! A set of cell indices with O(1) insert, remove and membership, and iteration in slice order.

#[derive(Clone, Debug)]
pub struct CellSet {
    items: Vec<u32>,
    pos: Vec<u32>,
}

const ABSENT: u32 = u32::MAX;

impl CellSet {
    pub fn new(capacity: usize) -> Self {
        CellSet { items: Vec::new(), pos: vec![ABSENT; capacity] }
    }
    /// The bytes its two lists hold (their capacity).
    pub fn heap_bytes(&self) -> usize {
        (self.items.capacity() + self.pos.capacity()) * std::mem::size_of::<u32>()
    }
    pub fn contains(&self, cell: u32) -> bool {
        self.pos[cell as usize] != ABSENT
    }
    pub fn insert(&mut self, cell: u32) {
        if !self.contains(cell) {
            self.pos[cell as usize] = self.items.len() as u32;
            self.items.push(cell);
        }
    }
    pub fn remove(&mut self, cell: u32) {
        let p = self.pos[cell as usize];
        if p != ABSENT {
            let last = self.items.pop().expect("non-empty");
            if last != cell {
                self.items[p as usize] = last;
                self.pos[last as usize] = p;
            }
            self.pos[cell as usize] = ABSENT;
        }
    }
    pub fn as_slice(&self) -> &[u32] {
        &self.items
    }
    pub fn len(&self) -> usize {
        self.items.len()
    }
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_remove_keep_membership_exact() {
        let mut s = CellSet::new(10);
        for c in [3, 7, 1, 9] {
            s.insert(c);
        }
        s.insert(7);
        assert_eq!(s.len(), 4);
        s.remove(3);
        s.remove(3);
        assert!(!s.contains(3));
        let mut v = s.as_slice().to_vec();
        v.sort();
        assert_eq!(v, vec![1, 7, 9]);
        s.remove(9);
        s.remove(1);
        s.remove(7);
        assert!(s.is_empty());
    }
}
