//! Freshness: until when each entry is current, on the caller's clock (spec notes H34).

use super::*;

impl SkillHost {
    /// Records that the registered entry of a skill is current until `deadline` (for
    /// example the time a `skills/list` or `skills/get` result arrived plus its `ttlMs`), in
    /// milliseconds on the caller's clock: the registry keeps no clock of its own, so every
    /// question about freshness brings its `now`. Returns whether the skill is registered
    /// (nothing is recorded otherwise). Registering the skill again clears the deadline.
    pub(crate) fn set_current_until(&mut self, label: &str, uri: &str, deadline: f64) -> bool {
        let Some(skill) = self.skill_mut(label, uri) else {
            return false;
        };
        skill.current_until = Some(deadline);
        true
    }

    /// Whether the skill is registered and its entry still current at `now` (before the
    /// deadline last set with [`SkillHost::set_current_until`]; without one, it is not).
    pub(crate) fn is_current(&self, label: &str, uri: &str, now: f64) -> bool {
        self.skill(label, uri)
            .and_then(|s| s.current_until)
            .is_some_and(|t| t > now)
    }

    /// [`SkillHost::plan_load_for`] for a skill whose entry is current at `now` (H34), in one
    /// call: `Ok(None)` when the skill is unknown or its entry no longer current (fetch it
    /// with `skills/get`, register it and set its deadline first).
    pub(crate) fn plan_load_current_for(
        &self,
        label: &str,
        uri: &str,
        now: f64,
        purpose: Purpose,
    ) -> Result<Option<PlannedRead>> {
        if !self.is_current(label, uri, now) {
            return Ok(None);
        }
        self.plan_load_for(label, uri, purpose).map(Some)
    }
}
