//! The parking ring: requests whose bodies are being read, each under a `u32` id that the
//! body read's continuation hands back.
//!
//! Pure and host-tested (`cargo test -p skills-edge-worker`); the Worker keeps one ring per
//! instance. A request's id is its slot in the low bits and a sequence number above them, so
//! an id whose request was dropped never finds its slot's new holder. The ring never grows
//! past `SLOTS`: when every slot is taken, parking one more request drops a parked one (round
//! robin over the slots), whose continuation then finds nothing and answers 503. A body read
//! that never settles (the client went away and the runtime dropped the promise) therefore
//! cannot leak memory.

/// At most `SLOTS` values (a power of two, checked at compile time), each under the id
/// [`Parking::park`] returned.
pub(crate) struct Parking<T, const SLOTS: u32> {
    /// The slots used so far, each with its holder's id (never more than `SLOTS`).
    slots: Vec<Option<(u32, T)>>,
    /// Emptied slots, used again before new ones are added.
    free: Vec<u32>,
    /// The sequence number of the last id given out.
    seq: u32,
    /// The slot dropped next when the ring is full.
    evict: u32,
}

impl<T, const SLOTS: u32> Parking<T, SLOTS> {
    /// Ids keep the slot in their low bits only if `SLOTS` is a power of two.
    const SLOTS_ARE_A_POWER_OF_TWO: () = assert!(
        SLOTS.is_power_of_two(),
        "Parking: SLOTS must be a power of two"
    );

    /// An empty ring.
    pub(crate) const fn new() -> Self {
        let () = Self::SLOTS_ARE_A_POWER_OF_TWO;
        Parking {
            slots: Vec::new(),
            free: Vec::new(),
            seq: 0,
            evict: 0,
        }
    }

    /// Parks `value` and returns its id, and the value it displaced when every slot was taken.
    pub(crate) fn park(&mut self, value: T) -> (u32, Option<T>) {
        let slot = match self.free.pop() {
            Some(slot) => slot,
            None if self.slots.len() < SLOTS as usize => {
                self.slots.push(None);
                // At most SLOTS (a u32) slots.
                (self.slots.len() - 1) as u32
            }
            None => {
                // Full: drop one parked value, taking the slots in turn.
                let slot = self.evict;
                self.evict = (slot + 1) % SLOTS;
                slot
            }
        };
        self.seq = self.seq.wrapping_add(1);
        let id = self.seq.wrapping_mul(SLOTS) | slot;
        match self.slots.get_mut(slot as usize) {
            Some(held) => (id, held.replace((id, value)).map(|(_, old)| old)),
            // Unreachable: `slot` is below `slots.len()` on every branch above. Were it not,
            // the value is dropped and its id finds nothing, as if it had been displaced.
            None => (id, None),
        }
    }

    /// Takes the value parked under `id`; `None` when there is none (it was displaced by a
    /// later one, already taken, or the id was never given out).
    pub(crate) fn unpark(&mut self, id: u32) -> Option<T> {
        let slot = id % SLOTS;
        let held = self.slots.get_mut(slot as usize)?;
        if !matches!(held, Some((h, _)) if *h == id) {
            return None;
        }
        let (_, value) = held.take()?;
        self.free.push(slot);
        Some(value)
    }

    /// How many values are parked.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.slots.iter().filter(|s| s.is_some()).count()
    }
}

#[cfg(test)]
mod tests {
    use super::Parking;

    #[test]
    fn parked_values_come_back_once_under_their_ids() {
        let mut ring: Parking<&str, 4> = Parking::new();
        let (a, none_a) = ring.park("a");
        let (b, none_b) = ring.park("b");
        assert_eq!((none_a, none_b), (None, None));
        assert_ne!(a, b);
        assert_eq!(ring.len(), 2);
        assert_eq!(ring.unpark(b), Some("b"));
        assert_eq!(ring.unpark(b), None, "taken once");
        assert_eq!(ring.unpark(a), Some("a"));
        assert_eq!(ring.len(), 0);
    }

    #[test]
    fn ids_never_given_out_find_nothing() {
        let mut ring: Parking<u8, 4> = Parking::new();
        assert_eq!(ring.unpark(0), None, "empty ring");
        let (id, _) = ring.park(1);
        for other in [0, 1, 2, 3, 5, u32::MAX, id.wrapping_add(4), id ^ (1 << 31)] {
            if other != id {
                assert_eq!(ring.unpark(other), None, "id {other}");
            }
        }
        assert_eq!(ring.unpark(id), Some(1), "the holder is untouched");
    }

    #[test]
    fn an_emptied_slot_is_used_again_under_a_new_id() {
        let mut ring: Parking<u8, 4> = Parking::new();
        let (first, _) = ring.park(1);
        assert_eq!(ring.unpark(first), Some(1));
        let (second, displaced) = ring.park(2);
        assert_eq!(displaced, None);
        assert_eq!(second % 4, first % 4, "the same slot");
        assert_ne!(second, first, "another id");
        assert_eq!(
            ring.unpark(first),
            None,
            "the stale id does not take the new holder"
        );
        assert_eq!(ring.unpark(second), Some(2));
    }

    #[test]
    fn a_full_ring_displaces_its_slots_in_turn() {
        let mut ring: Parking<u32, 4> = Parking::new();
        let ids: Vec<u32> = (0..4).map(|v| ring.park(v).0).collect();
        assert_eq!(ring.len(), 4);
        // Four more: each displaces the oldest holder, slot 0, 1, 2, 3 in turn.
        let mut later = Vec::new();
        for v in 4..8 {
            let (id, displaced) = ring.park(v);
            assert_eq!(displaced, Some(v - 4), "parking {v}");
            assert_eq!(ring.len(), 4, "the ring never grows");
            later.push(id);
        }
        for (v, id) in ids.iter().enumerate() {
            assert_eq!(
                ring.unpark(*id),
                None,
                "displaced value {v} answers nothing (503)"
            );
        }
        for (v, id) in later.iter().enumerate() {
            assert_eq!(ring.unpark(*id), Some(v as u32 + 4));
        }
        assert_eq!(ring.len(), 0);
    }

    #[test]
    fn displacement_continues_round_robin_after_slots_are_freed() {
        let mut ring: Parking<u32, 2> = Parking::new();
        let (a, _) = ring.park(0);
        let (_b, _) = ring.park(1);
        // Full: slot 0 goes first.
        let (c, displaced) = ring.park(2);
        assert_eq!(displaced, Some(0));
        assert_eq!(ring.unpark(a), None);
        // A freed slot is taken before anything is displaced.
        assert_eq!(ring.unpark(c), Some(2));
        let (d, displaced) = ring.park(3);
        assert_eq!((displaced, d % 2), (None, c % 2));
        // Full again: the turn has moved on to slot 1.
        let (_e, displaced) = ring.park(4);
        assert_eq!(displaced, Some(1));
        assert_eq!(ring.unpark(d), Some(3));
    }

    #[test]
    fn ids_keep_working_when_the_sequence_wraps() {
        let mut ring: Parking<u32, 4096> = Parking::new();
        // Park and take one value far past the 20 bits of sequence an id keeps at 4096 slots:
        // the ids stay usable, each finding its own value.
        for v in 0..(1u32 << 21) + 7 {
            let (id, displaced) = ring.park(v);
            assert_eq!(displaced, None);
            assert_eq!(ring.unpark(id), Some(v));
        }
        assert_eq!(ring.len(), 0);
    }

    #[test]
    fn the_workers_ring_holds_4096_then_displaces() {
        let mut ring: Parking<u32, 4096> = Parking::new();
        let first = ring.park(0).0;
        for v in 1..4096 {
            assert_eq!(ring.park(v).1, None, "slot {v} is free");
        }
        assert_eq!(ring.park(4096).1, Some(0), "the 4097th displaces the first");
        assert_eq!(ring.unpark(first), None);
    }
}
