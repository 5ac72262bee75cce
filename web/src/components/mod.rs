//! Small function components; each renders props and reports changes through callbacks.

pub mod bounds_readout;
pub mod pod_strip;
pub mod settings_panel;
pub mod text_field;

pub use bounds_readout::BoundsReadout;
pub use pod_strip::PodStrip;
pub use settings_panel::SettingsPanel;
pub use text_field::TextField;
