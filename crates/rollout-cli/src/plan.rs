//! `rollout plan FILE`: the forecast of a rollout, for a scenario or for a Deployment manifest
//! in a cluster model given by flags, once or swept over settings on every core.

use crate::plan_fail;
use crate::show::table;
use rollout_facade::import::Pick;
use rollout_facade::limits::{self, Limits};
use rollout_facade::plan::input::{plan_subject_scaled, read_subject_named};
use rollout_facade::plan::manifest::{ClusterModel, ResolvedModel};
use rollout_facade::plan::report::{rollout_events, samples, Sample};
use rollout_facade::plan::sweep::{self, Axis, Sweep, SweepRow};
use rollout_facade::plan::Subject;
use rollout_facade::scenario::Scenario;
use rollout_facade::view::age;
use std::fmt::Write;

/// The usage lines of `rollout plan`.
pub const USAGE: &str =
    "  rollout plan FILE|- [--json|--csv|--format markdown] [--deployment NAME] [--sweep SETTING=VALUES]... [--fail KIND:…] [MODEL FLAGS]
  rollout plan OLD.yaml NEW.yaml [--json|--format markdown] [MODEL FLAGS]
      what kubectl apply -f NEW.yaml does to the Deployment OLD.yaml made (nothing, a scale,
      a rollout: which pod template fields, both, a spec change) and its forecast
      --scale-at 30s=10        kubectl scale --replicas=10 30 s into the rollout (repeatable)
      --max-peak N, --min-available N, --max-duration T
                               exit code 1, with the reason, when the forecast breaks one
      --format markdown        a summary for a pull request, with a link to the Plan page
      --link-base URL          the app's address for that link [https://example.org/rollout-lab/]
      forecast the rollout of FILE (- reads standard input): a scenario (its last setImage)
      or a Deployment manifest (kubectl get deployment -o yaml|json, or a file of several
      objects: --deployment NAME chooses one of several Deployments), which is created,
      becomes available, and gets a new image. Model flags (manifests only; defaults in brackets):
        --pull 0s                pulling the image onto a node that lacks it (a pod
                                 without probes is Ready once its containers run)
        --app-ready 0s           a container's start to its app answering its probes
        --ready-after T          deprecated: read as --pull T
        --seconds-per-round 1    simulated seconds per settled round
        --nodes 3                nodes the pods are spread over
        --node-cpu 4             each node's allocatable CPU (a quantity: 1, 500m)
        --node-memory 16Gi       each node's allocatable memory (a quantity: 4Gi, 512Mi)
        --zones 1                zones the nodes take turns in (topology.kubernetes.io/zone)
        --nodes-file FILE        the nodes instead: kubectl get nodes -o yaml|json, or a
                                 list of {name, cpu, memory, pods, labels}
                                 (the scheduler's filters place pods with requests,
                                 nodeSelector, required affinity or DoNotSchedule spreads)
        --termination 30s        graceful termination [the manifest's terminationGracePeriodSeconds]
        --image IMAGE            the new image [the next version of the current one]
        --bad-image              the new image never becomes ready
        --pod-quota N            a pods ResourceQuota [none]
        --kubernetes 1.37        the release whose controllers run it: 1.37 or 1.28 [1.37;
                                 a scenario: its own kubernetesVersion, absent = 1.28]
      Requests to a Service in front of it (a model: manifests only; defaults in brackets):
        --load 100               requests a second, spread evenly over the ready endpoints
        --pod-capacity N         requests a second a pod serves at most [no limit]
        --endpoint-delay 1s      an endpoint change reaching the proxies
        --exit-after-sigterm 0s  the app exiting once it gets SIGTERM
        --pre-stop 5s            the preStop sleep [the manifest's sleep, else none]
      --large lifts Rollout Lab's page limits (10,000 replicas, 20,000 pods at once,
      2,000,000 pod-rounds a forecast) to Kubernetes' own (150,000 pods); on a terminal a
      sweep prints its progress on stderr
      --sweep maxSurge=0..10 --sweep maxUnavailable=0,1,25%,50% (also replicas, minReadySeconds)
      forecasts every combination (at most 10000), in parallel
      --fail crash:after=5s (or probe:after=N, readiness:from=N,to=M, slow:ready=N, pull) also
      forecasts the rollout where the new version fails so: capacity lost, pods stuck, the deadline, and
      kubectl rollout undo's time back to full availability (a sweep's \"lost if it fails\")";

/// Output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    Text,
    Json,
    Csv,
    /// `--format markdown`: the pull-request summary.
    Markdown,
}

/// The parsed command line.
#[derive(Debug)]
pub(crate) struct Args {
    pub(crate) file: String,
    /// `rollout plan OLD NEW`: NEW (then `file` is OLD).
    pub(crate) new_file: Option<String>,
    pub(crate) format: Format,
    /// `--scale-at 30s=10`: scales during the rollout.
    pub(crate) scales: Vec<rollout_facade::plan::change::ScaleAt>,
    /// `--max-peak`, `--min-available`, `--max-duration`: exit code 1 when one is broken.
    pub(crate) checks: rollout_facade::plan::constraints::Constraints,
    /// `--link-base URL`: the app's address, for the Markdown summary's link.
    pub(crate) link_base: String,
    /// `--deployment NAME`: the Deployment of a file of several.
    pub(crate) deployment: Option<String>,
    sweeps: Vec<sweep::AxisSpec>,
    pub(crate) model: ClusterModel,
    /// The model flags given (a scenario takes none).
    model_flags: Vec<String>,
    /// `--large`: Kubernetes' limits rather than the page's.
    pub(crate) limits: Limits,
    /// `--fail KIND:…`: how the new version fails, for the failure forecast.
    fail: Option<rollout_facade::failures::AppFailure>,
    /// `--kubernetes 1.28|1.37`: the release (a manifest's model takes it too; a scenario's
    /// own `kubernetesVersion` is replaced).
    kubernetes: Option<rollout_facade::version::KubernetesVersion>,
}

/// `30s`, `2m`, `1m30s`, `90` (seconds); errors name the flag.
pub fn parse_seconds(flag: &str, text: &str) -> Result<i64, String> {
    rollout_facade::plan::input::parse_duration(flag, text)
}

fn parse_number<T>(flag: &str, text: &str, min: T) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + Copy + std::fmt::Display,
{
    match text.trim().parse::<T>() {
        Ok(n) if n >= min => Ok(n),
        _ => Err(format!(
            "{flag} {text:?}: expected a whole number of at least {min}"
        )),
    }
}

/// A whole number of requests a second (its range is the traffic model's to check).
fn parse_rate(flag: &str, text: &str) -> Result<i64, String> {
    text.trim().parse::<i64>().map_err(|_| {
        format!(
            "{flag} {}: expected a whole number of requests a second",
            limits::prefix(text, 20)
        )
    })
}

fn parse_args(args: &[&str]) -> Result<Args, String> {
    let mut files: Vec<String> = Vec::new();
    let mut format = Format::Text;
    let mut scales = Vec::new();
    let mut checks = rollout_facade::plan::constraints::Constraints::default();
    let mut link_base = DEFAULT_LINK_BASE.to_string();
    let mut deployment = None;
    let mut sweeps = Vec::new();
    let mut model = ClusterModel::default();
    let mut model_flags = Vec::new();
    let mut limits = Limits::PAGE;
    let mut fail = None;
    let mut kubernetes = None;
    let mut i = 0;
    while i < args.len() {
        let arg = args[i];
        i += 1;
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v)),
            _ => (arg, None),
        };
        let mut value = || -> Result<&str, String> {
            if let Some(v) = inline {
                return Ok(v);
            }
            let v = args
                .get(i)
                .copied()
                .ok_or_else(|| format!("{flag} needs a value"))?;
            i += 1;
            Ok(v)
        };
        match flag {
            "--json" | "--csv" => {
                let f = if flag == "--json" {
                    Format::Json
                } else {
                    Format::Csv
                };
                if format != Format::Text && format != f {
                    return Err("--json and --csv: choose one".into());
                }
                format = f;
            }
            "--format" => {
                let f = match value()? {
                    "markdown" | "md" => Format::Markdown,
                    "json" => Format::Json,
                    "text" => Format::Text,
                    other => {
                        return Err(format!(
                            "--format {other:?}: expected markdown, json or text"
                        ))
                    }
                };
                if format != Format::Text && format != f {
                    return Err("--format and --json/--csv: choose one".into());
                }
                format = f;
            }
            "--scale-at" => scales.push(rollout_facade::plan::change::parse_scale_at(
                flag,
                value()?,
            )?),
            "--max-peak" => checks.max_peak = Some(parse_number(flag, value()?, 0i32)?),
            "--min-available" => checks.min_available = Some(parse_number(flag, value()?, 0i32)?),
            "--max-duration" => checks.within_seconds = Some(parse_seconds(flag, value()?)?),
            "--link-base" => link_base = value()?.trim().to_string(),
            "--sweep" => sweeps.push(sweep::parse_axis(value()?)?),
            "--deployment" => {
                let v = value()?.trim();
                if v.is_empty() {
                    return Err("--deployment needs the name of a Deployment".into());
                }
                deployment = Some(v.to_string());
            }
            "--ready-after" => model.ready_after_seconds = Some(parse_seconds(flag, value()?)?),
            "--pull" => model.pull_seconds = parse_seconds(flag, value()?)?,
            "--app-ready" => model.app_ready_seconds = parse_seconds(flag, value()?)?,
            "--seconds-per-round" => {
                let v = value()?;
                model.seconds_per_round = parse_number(flag, v, 1i64)?;
                if model.seconds_per_round > limits::MAX_SECONDS_PER_ROUND {
                    return Err(format!(
                        "{flag} {v}: at most {} (a day), the longest round Rollout Lab simulates",
                        limits::group(limits::MAX_SECONDS_PER_ROUND)
                    ));
                }
            }
            "--nodes" => {
                let v = value()?;
                model.nodes = match v.trim().parse::<u64>() {
                    Ok(n) if n > u64::from(limits::MAX_NODES) => {
                        return Err(format!(
                        "{flag} {}: at most {}, the most nodes Kubernetes supports in one cluster",
                        limits::prefix(v, 20),
                        limits::group(i64::from(limits::MAX_NODES))
                    ))
                    }
                    _ => parse_number(flag, v, 1u32)?,
                };
            }
            "--node-cpu" => {
                model.node_sizes.cpu_millis = Some(rollout_facade::plan::scheduling::parse_size(
                    flag,
                    value()?,
                    true,
                )?)
            }
            "--node-memory" => {
                model.node_sizes.memory_bytes = Some(rollout_facade::plan::scheduling::parse_size(
                    flag,
                    value()?,
                    false,
                )?)
            }
            "--zones" => {
                model.node_sizes.zones = Some(rollout_facade::plan::scheduling::parse_zones(
                    flag,
                    value()?,
                )?)
            }
            "--nodes-file" => {
                let path = value()?;
                let text = crate::read(path)?;
                model.node_sizes.list = Some(
                    rollout_facade::plan::scheduling::read_nodes_text(&text)
                        .map_err(|e| format!("{}: {e}", crate::display_name(path)))?,
                );
            }
            "--large" => limits = Limits::LARGE,
            "--termination" => model.termination_seconds = Some(parse_seconds(flag, value()?)?),
            "--image" => {
                let v = value()?.trim();
                if v.is_empty() {
                    return Err("--image needs an image name".into());
                }
                model.image = Some(v.to_string());
            }
            "--bad-image" => model.bad_image = true,
            "--fail" => fail = Some(plan_fail::parse(value()?)?),
            "--pod-quota" => model.pod_quota = Some(parse_number(flag, value()?, 0i32)?),
            "--kubernetes" => {
                let v = crate::kubernetes_version(value()?)?;
                model.kubernetes_version = v;
                kubernetes = Some(v);
            }
            "--load" => model.traffic.load = Some(parse_rate(flag, value()?)?),
            "--pod-capacity" => model.traffic.pod_capacity = Some(parse_rate(flag, value()?)?),
            "--endpoint-delay" => {
                model.traffic.endpoint_delay_seconds = Some(parse_seconds(flag, value()?)?)
            }
            "--exit-after-sigterm" => {
                model.traffic.exit_after_sigterm_seconds = Some(parse_seconds(flag, value()?)?)
            }
            "--pre-stop" => model.traffic.pre_stop_seconds = Some(parse_seconds(flag, value()?)?),
            f if f.starts_with('-') && f.len() > 1 => {
                return Err(format!("unknown option {f}\nusage:\n{USAGE}"))
            }
            _ => {
                if files.len() == 2 {
                    return Err(format!(
                        "plan takes FILE, or OLD NEW for a change\nusage:\n{USAGE}"
                    ));
                }
                files.push(arg.to_string());
                continue;
            }
        }
        if flag.starts_with("--")
            && !matches!(
                flag,
                "--json"
                    | "--csv"
                    | "--sweep"
                    | "--large"
                    | "--deployment"
                    | "--format"
                    | "--scale-at"
                    | "--max-peak"
                    | "--min-available"
                    | "--max-duration"
                    | "--link-base"
                    | "--fail"
                    | "--kubernetes"
            )
            && !model_flags.contains(&flag.to_string())
        {
            model_flags.push(flag.to_string());
        }
    }
    // The traffic flags in range, named, before anything is read.
    model.traffic.model(0)?;
    let mut files = files.into_iter();
    let file = files
        .next()
        .ok_or_else(|| format!("plan needs a FILE\nusage:\n{USAGE}"))?;
    let new_file = files.next();
    if new_file.is_some() && !sweeps.is_empty() {
        return Err(
            "--sweep sweeps one manifest's settings; plan OLD NEW forecasts one change".into(),
        );
    }
    if model.node_sizes.list.is_some() {
        if let Some(f) = ["--nodes", "--node-cpu", "--node-memory", "--zones"]
            .into_iter()
            .find(|f| model_flags.iter().any(|g| g == f))
        {
            return Err(format!(
                "{f} and --nodes-file: the file lists the nodes, sizes and labels; choose one"
            ));
        }
    }
    Ok(Args {
        file,
        new_file,
        format,
        scales,
        checks,
        link_base,
        deployment,
        sweeps,
        model,
        model_flags,
        limits,
        fail,
        kubernetes,
    })
}

/// What FILE holds: a scenario (an object with `actions`, or a preset id) or a manifest.
fn load_subject(args: &Args) -> Result<(Subject, Vec<String>), String> {
    let text = match rollout_facade::presets::preset(&args.file) {
        Some(_) => args.file.clone(),
        None => crate::read(&args.file)?,
    };
    let pick = Pick {
        name: args.deployment.as_deref(),
        how: "choose one with --deployment NAME",
    };
    let (subject, notes) = read_subject_named(&text, &args.model, pick).map_err(|e| {
        if rollout_facade::presets::preset(&args.file).is_some() {
            e
        } else {
            format!("{}: {e}", crate::display_name(&args.file))
        }
    })?;
    match subject {
        Subject::Scenario(s) => scenario_subject(args, s),
        manifest => {
            let mut notes = notes;
            notes.extend(unused_flags(args, &manifest));
            Ok((manifest, notes))
        }
    }
}

/// A note for each start-up flag given that this manifest does not use: `--app-ready` when no
/// readiness or startup probe asks the app.
fn unused_flags(args: &Args, subject: &Subject) -> Vec<String> {
    let Subject::Manifest { model, .. } = subject else {
        return Vec::new();
    };
    let given = |f: &str| args.model_flags.iter().any(|g| g == f);
    (given("--app-ready") && !model.startup.by_probes())
        .then(|| "--app-ready does not time readiness: the manifest has no readinessProbe or startupProbe, so a pod is Ready once its containers run (after --pull); it times when the app answers requests, which then fail until it does (the requests' figures)".to_string())
        .into_iter()
        .collect()
}

fn scenario_subject(args: &Args, s: Scenario) -> Result<(Subject, Vec<String>), String> {
    if args.deployment.is_some() {
        return Err(format!(
            "--deployment chooses a Deployment of a manifest file; {} is a scenario, whose rollout is its last setImage",
            args.file
        ));
    }
    if let Some(flag) = args.model_flags.first() {
        return Err(format!(
            "{flag} describes the cluster of a manifest; {} is a scenario, which has its own model (edit its fields instead)",
            args.file
        ));
    }
    let mut s = s;
    if let Some(v) = args.kubernetes {
        s.kubernetes_version = v;
    }
    Ok((Subject::Scenario(s), Vec::new()))
}

/// The app's address the Markdown summary links to, unless `--link-base` names another.
pub const DEFAULT_LINK_BASE: &str = "https://example.org/rollout-lab/";

/// Runs `rollout plan` with the arguments after `plan`; returns what to print on stdout.
pub fn run(args: &[&str]) -> Result<String, String> {
    run_checked(args).map(|(out, _)| out)
}

/// [`run`], with the checks a forecast broke (`--max-peak` …): the command then exits 1.
pub fn run_checked(args: &[&str]) -> Result<(String, Vec<String>), String> {
    let args = parse_args(args)?;
    if args.new_file.is_some() {
        return crate::plan_change::run(&args);
    }
    let (subject, notes) = load_subject(&args)?;
    if args.sweeps.is_empty() {
        single(&args, &subject, &notes)
    } else {
        if args.checks.any() || !args.scales.is_empty() || args.format == Format::Markdown {
            return Err("--sweep lists settings; --max-peak, --min-available, --max-duration, --scale-at and --format markdown take one forecast".into());
        }
        let deployment = subject.deployment()?;
        let sweep = Sweep::new(args.sweeps, &deployment)?;
        let rows = run_sweep_with(&subject, &sweep, &args.limits);
        let fails = match &args.fail {
            Some(f) => plan_fail::sweep(&subject, &sweep, f, &args.limits),
            None => Vec::new(),
        };
        Ok((
            match args.format {
                Format::Json if !fails.is_empty() => {
                    let rows: Vec<serde_json::Value> = rows
                        .iter()
                        .zip(&fails)
                        .map(|(r, f)| {
                            let r = serde_json::to_value(r).expect("sweep rows serialise");
                            match f {
                                Ok(f) => plan_fail::json(r, f),
                                Err(_) => r,
                            }
                        })
                        .collect();
                    serde_json::to_string_pretty(&rows).expect("sweep rows serialise") + "\n"
                }
                Format::Json => {
                    serde_json::to_string_pretty(&rows).expect("sweep rows serialise") + "\n"
                }
                Format::Csv => sweep_csv(&sweep, &rows, &fails),
                Format::Text | Format::Markdown => {
                    sweep_table(&subject, &sweep, &rows, &notes, &fails)
                }
            },
            Vec::new(),
        ))
    }
}

/// How far a sweep is, printed on stderr when it is a terminal: `rollout plan: 1,200 of
/// 10,000 combinations` on one line rewritten in place, about every 1 % and at the end.
struct Progress {
    done: std::sync::atomic::AtomicUsize,
    /// The count last printed: with several workers, the one that counted 20 may reach the
    /// terminal after the one that counted 21, and must then print nothing.
    printed: std::sync::Mutex<usize>,
    total: usize,
    shown: bool,
}

impl Progress {
    fn new(total: usize) -> Progress {
        use std::io::IsTerminal;
        Progress {
            done: std::sync::atomic::AtomicUsize::new(0),
            printed: std::sync::Mutex::new(0),
            total,
            shown: total >= 20 && std::io::stderr().is_terminal(),
        }
    }

    fn one_more(&self) {
        let d = self.done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if self.shown && (d.is_multiple_of((self.total / 100).max(1)) || d == self.total) {
            let mut printed = self.printed.lock().unwrap_or_else(|e| e.into_inner());
            if d <= *printed {
                return;
            }
            *printed = d;
            eprint!(
                "\rrollout plan: {} of {} combinations",
                limits::group(d as i64),
                limits::group(self.total as i64)
            );
            if d == self.total {
                eprintln!();
            }
        }
    }
}

/// Forecasts every combination on all cores within `limits`, with progress on a terminal;
/// rows in the sweep's order.
pub fn run_sweep_with(subject: &Subject, sweep: &Sweep, limits: &Limits) -> Vec<SweepRow> {
    let n = sweep.len();
    let progress = Progress::new(n);
    on_all_cores(n, |i: usize| {
        let row = subject.sweep_row_with(sweep.settings(i), limits);
        progress.one_more();
        row
    })
}

/// `one(0)`, …, `one(n − 1)` on all cores, in that order: each worker takes the next index
/// until none is left (a sweep's combinations take very different times).
pub(crate) fn on_all_cores<T: Send + Clone>(n: usize, one: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let workers = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(n.max(1));
    if workers <= 1 {
        // One core (or a target without threads, such as wasm32-wasip1): no thread at all.
        return (0..n).map(one).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut rows: Vec<Option<T>> = vec![None; n];
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if i >= n {
                            return done;
                        }
                        done.push((i, one(i)));
                    }
                })
            })
            .collect();
        for h in handles {
            for (i, row) in h.join().expect("a sweep worker does not panic") {
                rows[i] = Some(row);
            }
        }
    });
    rows.into_iter()
        .map(|r| r.expect("every combination ran"))
        .collect()
}

fn figure(v: Option<impl std::fmt::Display>) -> String {
    v.map_or_else(|| "-".to_string(), |v| v.to_string())
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn sweep_csv(
    sweep: &Sweep,
    rows: &[SweepRow],
    fails: &[Result<rollout_facade::plan::failure::FailureForecast, String>],
) -> String {
    let axes: Vec<Axis> = sweep.axes().collect();
    let mut out = String::new();
    let mut header: Vec<&str> = axes.iter().map(|a| a.name()).collect();
    header.extend(rollout_facade::plan::FIGURES);
    header.push("failedRequests");
    if !fails.is_empty() {
        header.extend(plan_fail::CSV_COLUMNS);
    }
    header.push("refused");
    out.push_str(&header.join(","));
    out.push('\n');
    let opt = |v: Option<String>| v.unwrap_or_default();
    for (i, row) in rows.iter().enumerate() {
        let mut cells: Vec<String> = axes
            .iter()
            .map(|a| opt(row.settings.get(*a).map(|v| v.to_string())))
            .collect();
        let f = row.forecast.as_ref();
        cells.extend([
            opt(f.map(|f| f.start_round.to_string())),
            opt(f.and_then(|f| f.complete_round).map(|v| v.to_string())),
            opt(f.and_then(|f| f.duration_seconds).map(|v| v.to_string())),
            opt(f.map(|f| f.peak_pods.to_string())),
            opt(f.and_then(|f| f.min_available).map(|v| v.to_string())),
            opt(f
                .and_then(|f| f.deadline_exceeded_round)
                .map(|v| v.to_string())),
            opt(row.failed_requests.map(|v| v.to_string())),
        ]);
        if let Some(fail) = fails.get(i) {
            cells.extend(plan_fail::csv_cells(fail));
        }
        cells.push(csv_field(row.refused.as_deref().unwrap_or("")));
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

fn subject_line(subject: &Subject, file: &str) -> String {
    match subject {
        Subject::Scenario(s) => format!(
            "scenario {} ({file}): {} rounds of {} s",
            s.name,
            rounds_kind(s),
            s.seconds_per_round
        ),
        Subject::Manifest { manifest, .. } => {
            format!("deployment {} ({file})", manifest.deployment.name)
        }
    }
}

fn rounds_kind(s: &Scenario) -> &'static str {
    if s.settle {
        "settled"
    } else {
        "lock-step"
    }
}

fn sweep_table(
    subject: &Subject,
    sweep: &Sweep,
    rows: &[SweepRow],
    notes: &[String],
    fails: &[Result<rollout_facade::plan::failure::FailureForecast, String>],
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Sweep of {} combinations, {}",
        sweep.len(),
        match subject {
            Subject::Scenario(s) => format!("scenario {}", s.name),
            Subject::Manifest { manifest, .. } =>
                format!("deployment {}", manifest.deployment.name),
        }
    );
    if let Subject::Manifest { model, .. } = subject {
        out.push_str(&model_lines(model));
    }
    for n in notes {
        let _ = writeln!(out, "note: {n}");
    }
    out.push('\n');
    let axes: Vec<Axis> = sweep.axes().collect();
    let mut header: Vec<String> = axes.iter().map(|a| a.name().to_string()).collect();
    header.extend(
        [
            "duration",
            "complete",
            "peak pods",
            "min available",
            "deadline exceeded",
            "failed requests",
        ]
        .map(String::from),
    );
    if !fails.is_empty() {
        header.push("lost if it fails".to_string());
    }
    let mut table_rows = vec![header];
    let mut refusals: Vec<&str> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let mut cells: Vec<String> = axes.iter().map(|a| figure(row.settings.get(*a))).collect();
        match (&row.forecast, &row.refused) {
            (Some(f), _) => cells.extend([
                f.duration_seconds
                    .map_or_else(|| "never".to_string(), |s| format!("{s} s")),
                figure(f.complete_round.map(|r| format!("round {r}"))),
                f.peak_pods.to_string(),
                figure(f.min_available),
                figure(f.deadline_exceeded_round.map(|r| format!("round {r}"))),
                figure(row.failed_requests.map(|n| limits::group(n as i64))),
            ]),
            (None, refused) => {
                let why = refused.as_deref().unwrap_or("no forecast");
                let n = refusals.iter().position(|r| *r == why).unwrap_or_else(|| {
                    refusals.push(why);
                    refusals.len() - 1
                });
                cells.push(format!("refused [{}]", n + 1));
            }
        }
        if let (Some(fail), Some(_)) = (fails.get(i), &row.forecast) {
            cells.push(plan_fail::cell(fail));
        }
        table_rows.push(cells);
    }
    out.push_str(&table(&table_rows));
    for (i, why) in refusals.iter().enumerate() {
        let _ = writeln!(out, "[{}] {why}", i + 1);
    }
    out
}

pub(crate) fn model_lines(model: &ResolvedModel) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Cluster model (flags; settled rounds: the controllers react at once):"
    );
    let startup = &model.startup;
    let assumed = &startup.assumed;
    let rows = vec![
        vec![
            format!("  --pull {}s", assumed.pull_seconds),
            if startup.by_probes() {
                "assumed: pulling the image onto a node that lacks it".to_string()
            } else {
                "assumed: pulling the image onto a node that lacks it; with no probe a pod is Ready once its containers run".to_string()
            },
        ],
        vec![
            format!("  --app-ready {}s", assumed.app_ready_seconds),
            if startup.by_probes() {
                "assumed: the app answers its probes this long after its container starts"
                    .to_string()
            } else {
                "not used: no readinessProbe or startupProbe asks the app".to_string()
            },
        ],
        vec![
            format!("  --seconds-per-round {}", model.seconds_per_round),
            "simulated seconds per round".to_string(),
        ],
        match &model.scheduling {
            None => vec![
                format!("  --nodes {}", model.nodes),
                "pods are spread round-robin over the nodes".to_string(),
            ],
            Some(s) => vec![
                format!("  --nodes {}", model.nodes),
                format!(
                    "{}; the scheduler's filters place each pod (node-(serial mod nodes) when it fits, else the first that does)",
                    rollout_facade::plan::scheduling::nodes_line(s, model.nodes)
                ),
            ],
        },
        vec![
            format!("  --termination {}s", model.termination_seconds),
            format!(
                "deleted pods stay Terminating (from {})",
                model.termination_from
            ),
        ],
        vec![
            format!("  --image {}", model.new_image),
            format!("replaces {}", model.old_image),
        ],
        vec![
            format!(
                "  --bad-image {}",
                if model.bad_image { "on" } else { "off" }
            ),
            "the new image never becomes ready".to_string(),
        ],
        vec![
            format!(
                "  --pod-quota {}",
                model
                    .pod_quota
                    .map_or("none".to_string(), |q| q.to_string())
            ),
            "pods ResourceQuota in the namespace".to_string(),
        ],
    ];
    out.push_str(&table(&rows));
    out.push_str(&startup_lines(model));
    out
}

/// What was read from the manifest about the pods' start-up, and a new pod's start-up that
/// follows from it and the assumptions.
fn startup_lines(model: &ResolvedModel) -> String {
    let startup = &model.startup;
    let mut out = String::from("Read from the manifest:\n");
    for line in startup.probe_lines() {
        let _ = writeln!(out, "  {line}");
    }
    if let Some(s) = &model.scheduling {
        for line in rollout_facade::plan::scheduling::pod_lines(&s.pod) {
            let _ = writeln!(out, "  {line}");
        }
    }
    let _ = writeln!(
        out,
        "  terminationGracePeriodSeconds {}",
        startup.read.termination_grace_period_seconds.map_or(
            "absent (Kubernetes' default 30 s)".to_string(),
            |s| format!("{s} s")
        )
    );
    {
        let ready = startup
            .ready_seconds
            .map_or("never".to_string(), |s| format!("at {s} s"));
        let _ = writeln!(
            out,
            "A new pod, by the kubelet's rules: admitted at 0 s, containers running from {} s, Ready {ready}",
            startup.running_seconds
        );
        for c in startup
            .container_starts
            .iter()
            .filter(|_| startup.container_starts.len() > 1)
        {
            let _ = writeln!(
                out,
                "  container {}: {}",
                c.name,
                c.ready
                    .map_or("never ready".to_string(), |r| format!("ready at {r} s"))
            );
        }
    }
    out
}

/// `m:ss`.
fn clock(seconds: i64) -> String {
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

fn single(
    args: &Args,
    subject: &Subject,
    notes: &[String],
) -> Result<(String, Vec<String>), String> {
    let (output, scenario, sim) = plan_subject_scaled(subject, notes, &args.limits, &args.scales)
        .map_err(|e| {
        if rollout_facade::presets::preset(&args.file).is_some() {
            e
        } else {
            format!("{}: {e}", crate::display_name(&args.file))
        }
    })?;
    let broken = rollout_facade::plan::markdown::broken_checks(&output, &args.checks);
    if args.format == Format::Json {
        // The process prints this and exits: freeing the simulation's objects one by one
        // (10,000 pods in the 5,000-replica benchmark, about 2.5 % of its instructions) would
        // only hand memory back to an allocator that is about to go away.
        std::mem::forget(sim);
        if let Some(fail) = &args.fail {
            let f = rollout_facade::plan::failure::failure_forecast(&scenario, fail, &args.limits)?;
            let plan = serde_json::to_value(&output).expect("a plan serialises");
            return Ok((
                serde_json::to_string(&plan_fail::json(plan, &f)).expect("a plan serialises")
                    + "\n",
                broken,
            ));
        }
        return Ok((
            serde_json::to_string(&output).expect("a plan serialises") + "\n",
            broken,
        ));
    }
    if args.format == Format::Markdown {
        let link = crate::plan_change::link(args, None);
        return Ok((
            rollout_facade::plan::markdown::summary(&output, None, &args.checks, link.as_deref()),
            broken,
        ));
    }
    let text = single_text(args, subject, &output, &scenario, &sim, None)?;
    Ok((text, broken))
}

/// The text report of one forecast (`rollout plan FILE`).
pub(crate) fn single_text(
    args: &Args,
    subject: &Subject,
    output: &rollout_facade::plan::input::PlanOutput,
    scenario: &Scenario,
    sim: &rollout_facade::sim::Simulation,
    command: Option<String>,
) -> Result<String, String> {
    let forecast = &output.forecast;
    let warns = &output.warnings;
    let target = rollout_facade::plan::rollout_target(scenario)?;
    if args.format == Format::Csv {
        return Err("--csv lists a sweep; add --sweep, or use --json for one forecast".into());
    }
    let spr = scenario.seconds_per_round;
    let mut out = String::new();
    if command.is_none() {
        let _ = writeln!(out, "Forecast for {}", subject_line(subject, &args.file));
    }
    if let Subject::Manifest { model, .. } = subject {
        out.push_str(&model_lines(model));
    }
    if let Some(d) = sim.api().deployment(&target.deployment) {
        let _ = writeln!(
            out,
            "Deployment {}: {}",
            target.deployment,
            rollout_facade::plan::report::describe_deployment(d)
        );
    }
    let start_time = i64::from(forecast.start_round) * spr;
    // The container `kubectl set image` names: the manifest's own (the scenario format's is `app`).
    let container = match subject {
        Subject::Manifest { manifest, .. } => manifest.container_name(),
        Subject::Scenario(_) => "app",
    };
    let image = scenario
        .actions
        .iter()
        .rev()
        .find_map(|a| match &a.kind {
            rollout_facade::scenario::ActionKind::SetImage { image, .. }
                if a.round == forecast.start_round =>
            {
                Some(image.clone())
            }
            _ => None,
        })
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "\n$ {}   (round {}, t = {})",
        command.unwrap_or_else(|| rollout_facade::ui_support::set_image_command(
            &target.deployment,
            container,
            &image
        )),
        forecast.start_round,
        clock(start_time)
    );
    let rows = vec![
        vec!["  startRound".to_string(), forecast.start_round.to_string()],
        vec![
            "  completeRound".to_string(),
            match (forecast.complete_round, &output.unschedulable) {
                (Some(r), _) => format!("{r}   kubectl rollout status succeeds"),
                (None, Some(u)) => format!("null   {}", u.reason),
                (None, None) => "null (never complete)".into(),
            },
        ],
        vec![
            "  durationSeconds".to_string(),
            forecast.duration_seconds.map_or("null".into(), |s| {
                format!("{s}   ({} after the image is set)", clock(s))
            }),
        ],
        vec![
            "  peakPods".to_string(),
            format!(
                "{}   most pods at once, terminating included",
                forecast.peak_pods
            ),
        ],
        vec![
            "  minAvailable".to_string(),
            format!("{}   fewest available pods", figure(forecast.min_available)),
        ],
        vec![
            "  deadlineExceededRound".to_string(),
            forecast
                .deadline_exceeded_round
                .map_or("null".into(), |r| format!("{r}   ProgressDeadlineExceeded")),
        ],
    ];
    out.push_str(&table(&rows));
    if let Some(t) = &output.traffic {
        out.push_str(&traffic_lines(t));
    }
    if let Some(u) = &output.unschedulable {
        let _ = writeln!(
            out,
            "\nPod {} is Pending (PodScheduled=False, Unschedulable):\n  Warning  FailedScheduling  default-scheduler  {}",
            u.pod, u.message
        );
    }

    let end_time = i64::from(
        forecast
            .complete_round
            .unwrap_or(sim.round().saturating_sub(1)),
    ) * spr;
    let events = rollout_events(sim, &target);
    if !events.is_empty() {
        let _ = writeln!(
            out,
            "\nEvents (kubectl describe deployment {}, when the rollout {}):",
            target.deployment,
            if forecast.complete_round.is_some() {
                "completes"
            } else {
                "stops"
            }
        );
        let mut rows = vec![["Type", "Reason", "Age", "From", "Message"]
            .map(String::from)
            .to_vec()];
        for e in &events {
            rows.push(vec![
                e.event.type_.to_string(),
                e.event.reason.to_string(),
                age(end_time - i64::from(e.round) * spr),
                "deployment-controller".to_string(),
                e.event.message.clone(),
            ]);
        }
        for line in table(&rows).lines() {
            let _ = writeln!(out, "  {line}");
        }
    }

    let total = end_time - start_time;
    let step = chart_step(total, spr);
    let points = samples(sim, &target, step);
    if !points.is_empty() {
        let _ = writeln!(
            out,
            "\nPods {} (█ new, ▒ old, ░ terminating):",
            if step == 60 {
                "minute by minute".to_string()
            } else {
                format!("every {}", age(step))
            }
        );
        out.push_str(&chart(&points));
    }
    if let Some(fail) = &args.fail {
        let f = rollout_facade::plan::failure::failure_forecast(scenario, fail, &args.limits)?;
        out.push_str(&plan_fail::text(&f));
    }
    if !warns.is_empty() {
        out.push_str("\nWarnings:\n");
        for w in warns {
            let _ = writeln!(out, "  ! {w}");
        }
    }
    Ok(out)
}

/// The requests a Service in front of the rollout gets, and the assumptions (`plan::traffic`).
fn traffic_lines(t: &rollout_facade::plan::traffic::TrafficForecast) -> String {
    let n = |v: u64| limits::group(i64::try_from(v).unwrap_or(i64::MAX));
    let f = &t.totals;
    let mut out = format!(
        "\nRequests to a Service in front of it, {} s to {} s (a model, not a measurement):\n  {}\n",
        f.from, f.to, t.assumptions.words()
    );
    let mut rows = vec![
        vec![
            "  failedRequests".to_string(),
            format!("{}   of {} sent", n(f.failed), n(f.sent)),
        ],
        vec![
            "  lowestServedFraction".to_string(),
            format!(
                "{:.3}   {}",
                f.lowest_served_fraction,
                f.lowest_at
                    .map_or(String::new(), |at| format!("the worst second, at {at} s"))
            ),
        ],
    ];
    for (key, v, why) in [
        (
            "    notAnswering",
            f.failed_not_answering,
            "sent to a pod whose app did not answer",
        ),
        (
            "    noEndpoint",
            f.failed_no_endpoint,
            "no endpoint ready (nor serving and terminating)",
        ),
        (
            "    overCapacity",
            f.failed_over_capacity,
            "over a pod's capacity",
        ),
    ] {
        if v > 0 {
            rows.push(vec![key.to_string(), format!("{}   {why}", n(v))]);
        }
    }
    out.push_str(&table(&rows));
    out
}

/// The chart's step: a minute, or for short rollouts the shortest of 5, 10, 15, 30 s (whole
/// rounds) giving at most 30 rows; long rollouts at whole minutes, at most 60 rows.
fn chart_step(total: i64, spr: i64) -> i64 {
    let whole = |s: i64| (s + spr - 1) / spr * spr;
    if total < 300 {
        for s in [5, 10, 15, 30] {
            if total / whole(s) <= 30 {
                return whole(s);
            }
        }
    }
    let minutes = ((total / 60 + 59) / 60).max(1);
    whole(60 * minutes)
}

fn chart(points: &[Sample]) -> String {
    let most = points
        .iter()
        .map(|p| p.new_pods + p.old_pods + p.terminating)
        .max()
        .unwrap_or(0)
        .max(1);
    let width = 50.0_f64.min(f64::from(most));
    let scale = |n: i32| (f64::from(n) * width / f64::from(most)).round() as usize;
    let mut rows = Vec::new();
    for p in points {
        let bar = format!(
            "{}{}{}",
            "█".repeat(scale(p.new_pods)),
            "▒".repeat(scale(p.old_pods)),
            "░".repeat(scale(p.terminating))
        );
        rows.push(vec![
            format!("  {}", clock(p.seconds)),
            bar,
            format!(
                "{} new, {} old{}, {} available",
                p.new_pods,
                p.old_pods,
                if p.terminating > 0 {
                    format!(", {} terminating", p.terminating)
                } else {
                    String::new()
                },
                p.available
            ),
        ]);
    }
    table(&rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_like_kubectl_flags() {
        assert_eq!(parse_seconds("--ready-after", "30s"), Ok(30));
        assert_eq!(parse_seconds("--ready-after", "90"), Ok(90));
        assert_eq!(parse_seconds("--ready-after", "2m"), Ok(120));
        assert_eq!(parse_seconds("--ready-after", "1m30s"), Ok(90));
        assert_eq!(parse_seconds("--ready-after", "1h"), Ok(3600));
        for bad in ["", "-5", "30x", "s", "30s1m", "1.5s", "5m5m"] {
            let e = parse_seconds("--termination", bad).unwrap_err();
            assert!(e.starts_with("--termination"), "{bad}: {e}");
        }
    }

    #[test]
    fn flags_are_checked_and_named() {
        let e = parse_args(&["x.yaml", "--seconds-per-round", "0"]).unwrap_err();
        assert!(e.starts_with("--seconds-per-round \"0\""), "{e}");
        let e = parse_args(&["x.yaml", "--nodes"]).unwrap_err();
        assert_eq!(e, "--nodes needs a value");
        let e = parse_args(&["x.yaml", "--frobnicate"]).unwrap_err();
        assert!(e.starts_with("unknown option --frobnicate"), "{e}");
        let e = parse_args(&["x.yaml", "--json", "--csv"]).unwrap_err();
        assert!(e.contains("choose one"), "{e}");
        let a = parse_args(&["x.yaml", "--ready-after=1m", "--sweep", "replicas=1..3"]).unwrap();
        assert_eq!(a.model.ready_after_seconds, Some(60));
        assert_eq!(a.model_flags, vec!["--ready-after".to_string()]);
        assert_eq!(a.sweeps.len(), 1);
        // The traffic flags: read, and refused out of range by name before anything is read.
        let a = parse_args(&[
            "x.yaml",
            "--load",
            "40",
            "--endpoint-delay=2s",
            "--pre-stop",
            "5s",
        ])
        .unwrap();
        assert_eq!(a.model.traffic.model(0).unwrap().load, 40);
        assert_eq!(a.model.traffic.endpoint_delay_seconds, Some(2));
        assert_eq!(a.model.traffic.pre_stop_seconds, Some(5));
        for (args, message) in [
            (["--load", "0"], "--load: 0 is not a rate the model takes"),
            (
                ["--load", "lots"],
                "--load lots: expected a whole number of requests a second",
            ),
            (["--pod-capacity", "-1"], "--pod-capacity: -1 is not a rate"),
            (
                ["--exit-after-sigterm", "2d"],
                "--exit-after-sigterm \"2d\": expected a duration",
            ),
            (
                ["--pre-stop", "1500m"],
                "--pre-stop: 90000 s is outside 0 to 86,400 s",
            ),
        ] {
            let e = parse_args(&["x.yaml", args[0], args[1]]).unwrap_err();
            assert!(e.starts_with(message), "{e}");
        }
    }

    #[test]
    fn short_rollouts_chart_in_seconds_long_ones_in_minutes() {
        assert_eq!(chart_step(65, 5), 5);
        assert_eq!(chart_step(300, 1), 60);
        assert_eq!(chart_step(7200, 1), 120);
        assert_eq!(chart_step(100, 7), 7);
    }
}
