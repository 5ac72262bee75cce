//! Lessons and challenges as plain data, and the checks that keep them true.
//!
//! A [`Lesson`] follows a section of the Kubernetes documentation through a scenario: each
//! [`LessonStep`] runs the simulation until a [`Moment`] named by what happens ("until the
//! Deployment controller first scales the new ReplicaSet up"), says a few sentences whose
//! numbers are [placeholders](text) filled from the simulation at that moment, may point at
//! a part of the page ([`Highlight`]) and may ask a [`Question`] whose answer is computed by
//! running a clone of the simulation forward. A [`Challenge`] is a situation and goals
//! checked on the run the learner produces.
//!
//! Nothing here depends on a front end: the web app renders these types and calls
//! [`question::check`] and [`challenge::evaluate`].

pub mod catalogue;
pub mod challenge;
pub mod challenges;
pub mod hint;
pub mod moment;
pub mod question;
pub mod quiz;
pub mod teacher;
pub mod text;
pub mod traffic_text;

#[cfg(test)]
mod tests;

use crate::presets;
use crate::scenario::Scenario;
use serde::Serialize;

pub use catalogue::{lesson, lessons};
pub use challenge::{Attempt, Challenge, Goal, GoalResult};
pub use challenges::{challenge, challenges};
pub use moment::{Count, Moment, Rs};
pub use question::{Answer, Ask, Feedback, Question};

/// The Kubernetes documentation section a lesson follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DocRef {
    /// The section's title, e.g. `Deployments › Updating a Deployment`.
    pub title: &'static str,
    /// Its address on kubernetes.io.
    pub url: &'static str,
}

/// Where a lesson's or challenge's scenario comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", content = "value", rename_all = "camelCase")]
pub enum ScenarioSource {
    /// A preset of [`crate::presets`], by id.
    Preset(&'static str),
    /// A scenario in the conformance format (JSON).
    Inline(&'static str),
}

impl ScenarioSource {
    /// The scenario itself. `Err` names a missing preset or the scenario's parse error.
    pub fn scenario(&self) -> Result<Scenario, String> {
        match self {
            ScenarioSource::Preset(id) => presets::preset(id)
                .map(|p| p.scenario)
                .ok_or_else(|| format!("no preset {id:?}")),
            ScenarioSource::Inline(json) => Scenario::from_json(json).map_err(|e| e.to_string()),
        }
    }
}

/// A part of the page a lesson step points at (the stage's test hooks name the same parts).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "target", content = "of", rename_all = "camelCase")]
pub enum Highlight {
    /// The lane of a ReplicaSet.
    Lane(Rs),
    /// The pods of a ReplicaSet (the first one the step is about).
    Pods(Rs),
    /// The gauge of total pods against `replicas + maxSurge`.
    BudgetTotal,
    /// The gauge of available pods against `replicas − maxUnavailable`.
    BudgetAvailable,
    /// A condition row of the Deployment's status, by type (`Progressing`, `Available`).
    Condition(&'static str),
    /// The newest event.
    Event,
    /// The step's explanation.
    Explanation,
    /// What `kubectl rollout status` prints.
    RolloutStatus,
    /// The Service in front of the lanes (its endpoints and this second's requests).
    Service,
    /// The strip of served and failed requests a second under the stage.
    Requests,
}

/// A highlight resolved on the simulation: the part of the page (the stage's test hooks) and
/// the object it names now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Target {
    /// `rs-lane`, `pod`, `budget-total`, `budget-available`, `condition`, `event`,
    /// `explanation`, `rollout-status`, `service` or `traffic-strip`.
    pub part: &'static str,
    /// The ReplicaSet (for a lane or its pods) or the condition type.
    pub name: Option<String>,
}

impl Highlight {
    /// What to highlight now (`None`: the ReplicaSet it names does not exist).
    pub fn target(&self, sim: &crate::sim::Simulation) -> Option<Target> {
        let rs = |rs: Rs| moment::resolve(sim.api(), rs).map(|r| r.metadata.name.clone());
        Some(match self {
            Highlight::Lane(r) => Target {
                part: "rs-lane",
                name: Some(rs(*r)?),
            },
            Highlight::Pods(r) => Target {
                part: "pod",
                name: Some(rs(*r)?),
            },
            Highlight::BudgetTotal => Target {
                part: "budget-total",
                name: None,
            },
            Highlight::BudgetAvailable => Target {
                part: "budget-available",
                name: None,
            },
            Highlight::Condition(c) => Target {
                part: "condition",
                name: Some((*c).to_string()),
            },
            Highlight::Event => Target {
                part: "event",
                name: None,
            },
            Highlight::Explanation => Target {
                part: "explanation",
                name: None,
            },
            Highlight::RolloutStatus => Target {
                part: "rollout-status",
                name: None,
            },
            Highlight::Service => Target {
                part: "service",
                name: None,
            },
            Highlight::Requests => Target {
                part: "traffic-strip",
                name: None,
            },
        })
    }
}

/// One screen of a lesson: run to a moment, then say something about it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LessonStep {
    /// Run the simulation until this happens (from where the previous step stopped).
    pub until: Moment,
    /// A few sentences with `{placeholders}` (see [`text`]).
    pub text: &'static str,
    /// What to point at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub highlight: Option<Highlight>,
    /// A prediction to make before going on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question: Option<Question>,
    /// The same moment in the code: the Go functions that decided, with their arithmetic
    /// (`{decision:getNewReplicaSet}`), shown behind an "In the code" disclosure after the
    /// plain-language text. Empty: none.
    #[serde(skip_serializing_if = "str::is_empty")]
    pub code: &'static str,
    /// What the text takes for granted about its numbers ("there are {totalPods} pods, the
    /// most maxSurge allows"), checked by `lessons::tests` at the step's moment.
    #[serde(skip)]
    pub claims: &'static [Claim],
}

/// A relation between two placeholders that a step's text relies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// Both placeholders give the same number.
    Equal(&'static str, &'static str),
    /// The first is at most the second.
    AtMost(&'static str, &'static str),
}

impl Claim {
    /// Whether it holds on `sim`; `Err` if a placeholder does not fill with a number.
    pub fn holds(&self, sim: &crate::sim::Simulation) -> Result<bool, String> {
        let num = |key: &str| -> Result<i64, String> {
            let v = text::fill(&format!("{{{key}}}"), sim)?;
            v.parse()
                .map_err(|_| format!("{{{key}}} is {v:?}, not a number"))
        };
        Ok(match self {
            Claim::Equal(a, b) => num(a)? == num(b)?,
            Claim::AtMost(a, b) => num(a)? <= num(b)?,
        })
    }
}

/// A guided tour of one idea, following one section of the Kubernetes documentation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Lesson {
    /// Stable id, used in links (`?lesson=rolling-update`).
    pub id: &'static str,
    /// Menu title.
    pub title: &'static str,
    /// What it teaches, in one sentence (the teacher's page).
    pub teaches: &'static str,
    /// The documentation section it follows.
    pub doc: DocRef,
    /// The scenario it runs.
    pub scenario: ScenarioSource,
    /// Its steps, in order.
    pub steps: &'static [LessonStep],
}

impl Lesson {
    /// What it teaches, its placeholders filled at the first of its steps where they all
    /// fill (the menu and the teacher's page).
    pub fn summary(&'static self) -> Result<String, String> {
        let mut run = LessonRun::open(self)?;
        loop {
            match text::fill(self.teaches, &run.sim) {
                Ok(t) => return Ok(t),
                Err(e) if !run.forward()? => return Err(format!("{}: {e}", self.id)),
                Err(_) => {}
            }
        }
    }
}

/// A lesson opened on a simulation: where each step stands.
#[derive(Clone, Debug)]
pub struct LessonRun {
    /// The lesson.
    pub lesson: &'static Lesson,
    /// The simulation, at the moment of step `step`.
    pub sim: crate::sim::Simulation,
    /// The step shown (0-based).
    pub step: usize,
}

impl LessonRun {
    /// Opens `lesson` at its first step (the simulation run to that step's moment).
    pub fn open(lesson: &'static Lesson) -> Result<LessonRun, String> {
        let sim = crate::sim::Simulation::new(lesson.scenario.scenario()?);
        let mut run = LessonRun {
            lesson,
            sim,
            step: 0,
        };
        run.reach(0)?;
        Ok(run)
    }

    /// Opens `lesson` at step `step` (clamped to the last one).
    pub fn open_at(lesson: &'static Lesson, step: usize) -> Result<LessonRun, String> {
        let mut run = LessonRun::open(lesson)?;
        while run.step < step.min(lesson.steps.len().saturating_sub(1)) {
            run.forward()?;
        }
        Ok(run)
    }

    fn reach(&mut self, step: usize) -> Result<(), String> {
        let until = self.lesson.steps[step].until;
        moment::run_to(&mut self.sim, &until)
            .map(|_| ())
            .map_err(|e| format!("{} step {}: {e}", self.lesson.id, step + 1))
    }

    /// Goes to the next step, running the simulation to its moment. False at the last step.
    pub fn forward(&mut self) -> Result<bool, String> {
        if self.step + 1 >= self.lesson.steps.len() {
            return Ok(false);
        }
        self.step += 1;
        self.reach(self.step)?;
        Ok(true)
    }

    /// Goes back to the previous step (the simulation as it was there). False at the first.
    pub fn back(&mut self) -> Result<bool, String> {
        if self.step == 0 {
            return Ok(false);
        }
        *self = LessonRun::open_at(self.lesson, self.step - 1)?;
        Ok(true)
    }

    /// The current step.
    pub fn current(&self) -> &'static LessonStep {
        &self.lesson.steps[self.step]
    }

    /// The current step's text with its placeholders filled.
    pub fn text(&self) -> Result<String, String> {
        text::fill(self.current().text, &self.sim)
    }

    /// The current step's "In the code" part, filled (`None`: the step has none).
    pub fn code(&self) -> Result<Option<String>, String> {
        let code = self.current().code;
        if code.is_empty() {
            return Ok(None);
        }
        text::fill(code, &self.sim).map(Some)
    }

    /// "Show me" at the current step's question: the answer with why, and a copy of the
    /// simulation run to the step that decided it. The lesson stays at its step: `forward`
    /// still runs from the step's moment. `Ok(None)`: the step asks nothing.
    pub fn show_me(&self) -> Result<Option<(question::Expected, crate::sim::Simulation)>, String> {
        let Some(q) = self.current().question else {
            return Ok(None);
        };
        let expected = question::expected(&q.ask, &self.sim)?;
        let mut shown = self.sim.clone();
        for _ in 0..expected.steps {
            shown.step();
        }
        Ok(Some((expected, shown)))
    }
}
