//! workspace-level test helpers
