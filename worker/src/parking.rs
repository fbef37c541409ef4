//! The parking ring: requests whose bodies are being read, each under a `u64` id that the
//! body read's continuation hands back.
//!
//! Pure and host-tested (`cargo test -p skills-edge-worker`); the Worker keeps one ring per
//! instance. A request's id is its slot in the low bits and a sequence number above them, so
//! an id whose request was dropped never finds its slot's new holder. The sequence never
//! wraps: with 4096 slots it has 52 bits, 4.5 × 10^15 parks (142 years at a million a
//! second), and a ring whose sequence is used up parks nothing more (the request is answered
//! 503) rather than give out an id twice. So no id is ever given out twice in an instance's
//! life, and a continuation that runs late (its request displaced) can never pick up another
//! request's head and grant. The ring never grows past `SLOTS`: when every slot is taken,
//! parking one more request drops a parked one (round robin over the slots), whose
//! continuation then finds nothing and answers 503. A body read that never settles (the
//! client went away and the runtime dropped the promise) therefore cannot leak memory.

/// At most `SLOTS` values (a power of two, checked at compile time), each under the id
/// [`Parking::park`] returned.
pub(crate) struct Parking<T, const SLOTS: u32> {
    /// The slots used so far, each with its holder's id (never more than `SLOTS`).
    slots: Vec<Option<(u64, T)>>,
    /// Emptied slots, used again before new ones are added.
    free: Vec<u32>,
    /// The sequence number of the last id given out.
    seq: u64,
    /// The slot dropped next when the ring is full.
    evict: u32,
}

impl<T, const SLOTS: u32> Parking<T, SLOTS> {
    /// Ids keep the slot in their low bits only if `SLOTS` is a power of two.
    const SLOTS_ARE_A_POWER_OF_TWO: () = assert!(
        SLOTS.is_power_of_two(),
        "Parking: SLOTS must be a power of two"
    );

    /// The bits of an id that hold the slot.
    const SLOT_BITS: u32 = SLOTS.trailing_zeros();

    /// The last sequence number an id can hold above the slot bits.
    const LAST_SEQ: u64 = u64::MAX >> Self::SLOT_BITS;

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

    /// Parks `value` and returns its id, and the value it displaced when every slot was
    /// taken; `Err(value)` when the ring's ids are used up (never given out twice).
    pub(crate) fn park(&mut self, value: T) -> Result<(u64, Option<T>), T> {
        if self.seq >= Self::LAST_SEQ {
            return Err(value);
        }
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
        self.seq += 1;
        let id = (self.seq << Self::SLOT_BITS) | u64::from(slot);
        match self.slots.get_mut(slot as usize) {
            Some(held) => Ok((id, held.replace((id, value)).map(|(_, old)| old))),
            // Unreachable: `slot` is below `slots.len()` on every branch above. Were it not,
            // the value is dropped and its id finds nothing, as if it had been displaced.
            None => Ok((id, None)),
        }
    }

    /// Takes the value parked under `id`; `None` when there is none (it was displaced by a
    /// later one, already taken, or the id was never given out).
    pub(crate) fn unpark(&mut self, id: u64) -> Option<T> {
        let slot = id % u64::from(SLOTS);
        let held = self.slots.get_mut(usize::try_from(slot).ok()?)?;
        if !matches!(held, Some((h, _)) if *h == id) {
            return None;
        }
        let (_, value) = held.take()?;
        // Below SLOTS, a u32.
        self.free.push(slot as u32);
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

    impl<T, const SLOTS: u32> Parking<T, SLOTS> {
        /// `park`, when ids are left (every test but the one that uses them up).
        fn park_ok(&mut self, value: T) -> (u64, Option<T>) {
            match self.park(value) {
                Ok(parked) => parked,
                Err(_) => panic!("the ring's ids are used up"),
            }
        }
    }

    #[test]
    fn parked_values_come_back_once_under_their_ids() {
        let mut ring: Parking<&str, 4> = Parking::new();
        let (a, none_a) = ring.park_ok("a");
        let (b, none_b) = ring.park_ok("b");
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
        let (id, _) = ring.park_ok(1);
        for other in [
            0,
            1,
            2,
            3,
            5,
            u64::MAX,
            id.wrapping_add(4),
            id ^ (1 << 31),
            id ^ (1 << 63),
        ] {
            if other != id {
                assert_eq!(ring.unpark(other), None, "id {other}");
            }
        }
        assert_eq!(ring.unpark(id), Some(1), "the holder is untouched");
    }

    #[test]
    fn an_emptied_slot_is_used_again_under_a_new_id() {
        let mut ring: Parking<u8, 4> = Parking::new();
        let (first, _) = ring.park_ok(1);
        assert_eq!(ring.unpark(first), Some(1));
        let (second, displaced) = ring.park_ok(2);
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
        let ids: Vec<u64> = (0..4).map(|v| ring.park_ok(v).0).collect();
        assert_eq!(ring.len(), 4);
        // Four more: each displaces the oldest holder, slot 0, 1, 2, 3 in turn.
        let mut later = Vec::new();
        for v in 4..8 {
            let (id, displaced) = ring.park_ok(v);
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
        let (a, _) = ring.park_ok(0);
        let (_b, _) = ring.park_ok(1);
        // Full: slot 0 goes first.
        let (c, displaced) = ring.park_ok(2);
        assert_eq!(displaced, Some(0));
        assert_eq!(ring.unpark(a), None);
        // A freed slot is taken before anything is displaced.
        assert_eq!(ring.unpark(c), Some(2));
        let (d, displaced) = ring.park_ok(3);
        assert_eq!((displaced, d % 2), (None, c % 2));
        // Full again: the turn has moved on to slot 1.
        let (_e, displaced) = ring.park_ok(4);
        assert_eq!(displaced, Some(1));
        assert_eq!(ring.unpark(d), Some(3));
    }

    #[test]
    fn ids_stay_distinct_far_past_2_pow_20_parks() {
        let mut ring: Parking<u32, 4096> = Parking::new();
        // Park and take one value far past the 20 bits of sequence a 32-bit id kept at 4096
        // slots: the ids stay usable, each finding its own value.
        let mut last = 0;
        for v in 0..(1u32 << 21) + 7 {
            let (id, displaced) = ring.park_ok(v);
            assert_eq!(displaced, None);
            assert!(id > last, "ids only grow");
            last = id;
            assert_eq!(ring.unpark(id), Some(v));
        }
        assert_eq!(ring.len(), 0);
    }

    #[test]
    fn a_late_continuation_never_takes_a_request_parked_2_pow_20_later() {
        // The attacker's request is displaced from its slot (every slot taken), and its body
        // read's continuation is held back; then 2^20 more requests pass through that slot.
        let mut ring: Parking<&str, 4096> = Parking::new();
        let (attacker, _) = ring.park_ok("attacker's head");
        for _ in 1..4096 {
            ring.park_ok("filler");
        }
        let (mut victim, displaced) = ring.park_ok("victim's head and grant");
        assert_eq!(displaced, Some("attacker's head"));
        for _ in 0..(1u32 << 20) {
            assert_eq!(ring.unpark(victim), Some("victim's head and grant"));
            victim = ring.park_ok("victim's head and grant").0;
            assert_eq!(victim % 4096, attacker % 4096, "the same slot");
            // The late continuation finds nothing (503), whenever it runs.
            assert_ne!(victim, attacker, "an id given out twice");
            assert_eq!(ring.unpark(attacker), None);
        }
    }

    #[test]
    fn a_ring_whose_ids_are_used_up_parks_nothing_more() {
        let mut ring: Parking<u8, 4096> = Parking::new();
        let (id, _) = ring.park_ok(1);
        ring.seq = Parking::<u8, 4096>::LAST_SEQ - 1;
        let (last, _) = ring.park_ok(2);
        assert_eq!(last >> 12, (1 << 52) - 1, "the last sequence number");
        assert_eq!(
            ring.park(3).err(),
            Some(3),
            "refused, never an id given out twice"
        );
        assert_eq!(ring.unpark(id), Some(1));
        assert_eq!(ring.unpark(last), Some(2));
        assert_eq!(ring.park(4).err(), Some(4));
    }

    #[test]
    fn the_workers_ring_holds_4096_then_displaces() {
        let mut ring: Parking<u32, 4096> = Parking::new();
        let first = ring.park_ok(0).0;
        for v in 1..4096 {
            assert_eq!(ring.park_ok(v).1, None, "slot {v} is free");
        }
        assert_eq!(
            ring.park_ok(4096).1,
            Some(0),
            "the 4097th displaces the first"
        );
        assert_eq!(ring.unpark(first), None);
    }
}
