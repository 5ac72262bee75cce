//! Hooks: state and effects shared by components, each with one job.

pub mod use_forecast;
pub mod use_plan_page;

pub use use_forecast::{use_forecast, Forecasted};
pub use use_plan_page::use_plan_page;
