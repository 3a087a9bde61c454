//! Values kept under small keys that JavaScript can hold: a slab whose keys are never reused
//! while a stale copy could still arrive.
//!
//! The edge hands JavaScript a key, not a Rust closure, for each promise it awaits (one callback
//! made once per isolate serves them all: `session-agent-platform`'s `promise` module). A key is a slot and that slot's
//! generation. A slot is reused once its value is removed, with the next generation, so a key
//! that JavaScript calls back with late (a promise that settles after its future was dropped)
//! finds nothing rather than another value.

/// A key: the slot, and the generation of the slot's value it was made for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub slot: u32,
    pub generation: u32,
}

/// One slot: its generation, and its value while it holds one.
struct Slot<T> {
    generation: u32,
    value: Option<T>,
}

/// Values under [`Key`]s. Its size is the most values it has held at once.
pub struct Slab<T> {
    slots: Vec<Slot<T>>,
    /// The slots without a value, the last freed on top.
    free: Vec<u32>,
}

impl<T> Default for Slab<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Slab<T> {
    /// An empty slab (`const`: a `thread_local!` can start with one).
    pub const fn new() -> Self {
        Slab {
            slots: Vec::new(),
            free: Vec::new(),
        }
    }

    /// Keeps `value`; the key finds it until it is removed.
    pub fn insert(&mut self, value: T) -> Key {
        if let Some(slot) = self.free.pop() {
            let entry = &mut self.slots[slot as usize];
            entry.value = Some(value);
            return Key {
                slot,
                generation: entry.generation,
            };
        }
        // More than u32::MAX values at once cannot fit in WebAssembly's memory.
        let slot = u32::try_from(self.slots.len()).unwrap_or(u32::MAX);
        self.slots.push(Slot {
            generation: 0,
            value: Some(value),
        });
        Key {
            slot,
            generation: 0,
        }
    }

    /// The value under `key`, if it is still there.
    pub fn get_mut(&mut self, key: Key) -> Option<&mut T> {
        match self.slots.get_mut(key.slot as usize) {
            Some(entry) if entry.generation == key.generation => entry.value.as_mut(),
            _ => None,
        }
    }

    /// Takes the value under `key` out, if it is still there; its slot's next value gets a new
    /// generation.
    pub fn remove(&mut self, key: Key) -> Option<T> {
        let entry = self.slots.get_mut(key.slot as usize)?;
        if entry.generation != key.generation {
            return None;
        }
        let value = entry.value.take()?;
        entry.generation = entry.generation.wrapping_add(1);
        self.free.push(key.slot);
        Some(value)
    }

    /// How many values it holds.
    pub fn len(&self) -> usize {
        self.slots.len() - self.free.len()
    }

    /// Whether it holds no value.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
#[path = "slab_tests.rs"]
mod tests;
