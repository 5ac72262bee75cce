//! Function components; each renders props and reports changes through callbacks.

pub mod bounds_readout;
pub mod chart_panel;
pub mod deployment_status;
pub mod events_table;
pub mod explanation;
pub mod flow_diagram;
pub mod inside_section;
pub mod kubectl_panel;
pub mod lesson_panel;
pub mod object_inspector;
pub mod pod_strip;
pub mod replica_sets;
pub mod rs_internals;
pub mod scenario_panel;
pub mod select;
pub mod settings_panel;
pub mod share_panel;
pub mod stage;
pub mod text_field;
pub mod transport;

pub use bounds_readout::BoundsReadout;
pub use chart_panel::ChartPanel;
pub use deployment_status::DeploymentStatus;
pub use events_table::EventsTable;
pub use explanation::ExplanationPanel;
pub use inside_section::inside_section;
pub use kubectl_panel::KubectlPanel;
pub use lesson_panel::{GuidePanel, LessonsMenu, QuizBar};
pub use pod_strip::PodStrip;
pub use replica_sets::ReplicaSets;
pub use scenario_panel::ScenarioPanel;
pub use select::Select;
pub use settings_panel::SettingsPanel;
pub use share_panel::share_buttons;
pub use text_field::TextField;
pub use transport::Transport;
