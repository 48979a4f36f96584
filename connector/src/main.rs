//! `acc-connector`: enrolls with a control plane, then runs its agents and streams their events.

fn main() {}
