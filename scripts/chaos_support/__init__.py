"""scripts/chaos's parts: the single-bridge run (single), the standby run (standby) and what they share."""
