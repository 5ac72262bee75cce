//! `rollout`: run a Rollout Lab scenario natively.
//!
//! `rollout trace SCENARIO.json` prints the trace in the conformance format.

use rollout_core::scenario::Scenario;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [cmd, path] if cmd == "trace" => {
            let text = match std::fs::read_to_string(path) {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("rollout: cannot read {path}: {e}");
                    return ExitCode::from(2);
                }
            };
            let scenario = match Scenario::from_json(&text) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("rollout: {path}: {e}");
                    return ExitCode::from(2);
                }
            };
            let trace = rollout_core::sim::run_trace(scenario);
            println!(
                "{}",
                serde_json::to_string(&trace).expect("trace serialises")
            );
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("usage: rollout trace SCENARIO.json");
            ExitCode::from(2)
        }
    }
}
