//! Hooks: state and effects shared by components, each with one job.

pub mod use_compare;
pub mod use_controller;
pub mod use_forecast;
pub mod use_guide_address;
pub mod use_keyboard;
pub mod use_lab_memos;
pub mod use_plan_page;
pub mod use_playback;
pub mod use_presentation;
pub mod use_race_keys;
pub mod use_race_search;
pub mod use_share_dialog;
pub mod use_yaml_reader;

pub use use_compare::{route_step, use_compare};
pub use use_controller::{use_controller, Controller};
pub use use_forecast::{use_forecast, Forecasted};
pub use use_guide_address::use_guide_address;
pub use use_keyboard::use_keyboard;
pub use use_lab_memos::{use_frame, use_inside_frame, use_plan_source};
pub use use_plan_page::{use_plan_page, Page};
pub use use_playback::use_playback;
pub use use_presentation::{use_presentation, Presenting};
pub use use_race_keys::use_race_keys;
pub use use_yaml_reader::{use_yaml_now, use_yaml_reader};
