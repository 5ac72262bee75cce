//! What an embedded lab shows, read one way from its three doors: an `?embed` page's query
//! (`?embed&controls=step,replicas&chart=0&explain=0&view=races&race=…&steps=…`), a
//! `<rollout-lab>` element's attributes and the fields of the JavaScript `mount(element,
//! options)`. Each door hands [`EmbedOptions::read`] its key/value pairs; what a door does with
//! what could not be read ([`EmbedOptions::ignored`]) is its own choice: the query's page
//! notes it, the element and `mount()` refuse an unknown control.

use crate::share::parse_params;

/// A control an embed can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Back and Step.
    Step,
    /// A whole round back and forward.
    Round,
    /// Play / pause.
    Play,
    /// Start over.
    Reset,
    /// Roll out the next image.
    Image,
    /// The replicas slider.
    Replicas,
    /// The maxSurge slider.
    MaxSurge,
    /// The maxUnavailable slider.
    MaxUnavailable,
    /// RollingUpdate or Recreate.
    Strategy,
}

impl Control {
    /// Every control, in the order an embed shows them.
    pub const ALL: [Control; 9] = [
        Control::Step,
        Control::Round,
        Control::Play,
        Control::Image,
        Control::Reset,
        Control::Strategy,
        Control::Replicas,
        Control::MaxSurge,
        Control::MaxUnavailable,
    ];

    /// Shown when `controls` is not given.
    pub const DEFAULT: [Control; 4] =
        [Control::Step, Control::Play, Control::Image, Control::Reset];

    /// Its name in `controls=`.
    pub fn name(self) -> &'static str {
        match self {
            Control::Step => "step",
            Control::Round => "round",
            Control::Play => "play",
            Control::Reset => "reset",
            Control::Image => "image",
            Control::Replicas => "replicas",
            Control::MaxSurge => "maxSurge",
            Control::MaxUnavailable => "maxUnavailable",
            Control::Strategy => "strategy",
        }
    }

    /// By name (case-insensitive).
    pub fn parse(name: &str) -> Option<Control> {
        let name = name.trim();
        Control::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(name))
    }
}

/// What a permalink or an element asks the Races view for: a walk-through's id and the steps
/// taken, as the address writes them (`None`: the first walk-through, no step).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RaceLink {
    /// `race=`: a walk-through's id.
    pub race: Option<String>,
    /// `steps=`: the steps taken, separated by commas (percent-encoded as in the address).
    pub steps: Option<String>,
    /// `show=`: the counterfactuals shown beside the real controllers, by their short names
    /// (`noexp,norv`: `races::explorer::Mode::id`), separated by commas.
    pub show: Option<String>,
}

/// Something in the options that was not understood, in the order met.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ignored {
    /// A name in `controls` that names no [`Control`]: the element and `mount()` refuse it.
    Control(String),
    /// A `view` other than `races`: the element shows the lab as if there were none.
    View(String),
}

/// An option's value as a door gives it: text (a query parameter, an attribute, a field of
/// `mount()`'s options, `true`/`false` as text), or `mount()`'s `controls` given as a list of
/// names (each one name, commas and all).
#[derive(Clone, Copy, Debug)]
pub enum Given<'a> {
    /// Text: `controls` splits it at commas.
    Text(&'a str),
    /// A list of control names (only `controls` takes one).
    List(&'a [String]),
}

/// What an embed shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmbedOptions {
    /// The controls, in [`Control::ALL`] order.
    pub controls: Vec<Control>,
    /// The pod-count chart.
    pub chart: bool,
    /// The one-line explanation of the last step.
    pub explain: bool,
    /// The Service in front of the pods and its requests (`crate::traffic`): a strip of
    /// served and failed requests a second and why requests fail. Off by default: it would
    /// crowd a small lab that is about the controllers.
    pub traffic: bool,
    /// Things in the options that were not understood.
    pub ignored: Vec<Ignored>,
    /// `view=races`: the Races view instead of the lab, at this walk-through and steps.
    pub races: Option<RaceLink>,
}

impl Default for EmbedOptions {
    fn default() -> Self {
        EmbedOptions {
            controls: Control::DEFAULT.to_vec(),
            chart: true,
            explain: true,
            traffic: false,
            ignored: Vec::new(),
            races: None,
        }
    }
}

impl EmbedOptions {
    /// The one reader of embed options, for every door: `controls` (names, case-insensitive,
    /// separated by commas or given as a list; the last `controls` wins), `chart` and
    /// `explain` and `traffic` ([`is_on`]), and `view`, `race`, `steps` and `show` (the first of each; the Races view
    /// with `view=races`, `view` trimmed). Other keys are left to others. Keys are matched
    /// as written (the query's are case-sensitive, an element's attributes lower case).
    /// (`dyn`: one copy of the reader in a wasm module, not one per door.)
    pub fn read<'a>(pairs: &mut dyn Iterator<Item = (&'a str, Given<'a>)>) -> EmbedOptions {
        let mut o = EmbedOptions::default();
        let (mut view, mut race, mut steps, mut show) = (None, None, None, None);
        for (key, value) in pairs {
            let text = match value {
                Given::Text(t) => t,
                Given::List(names) => {
                    if key == "controls" {
                        o.set_controls(&mut names.iter().map(String::as_str));
                    }
                    continue;
                }
            };
            match key {
                "controls" => o.set_controls(&mut text.split(',')),
                "chart" => o.chart = is_on(text),
                "explain" => o.explain = is_on(text),
                "traffic" => o.traffic = is_on(text),
                "view" => {
                    if text != "races" {
                        o.ignored.push(Ignored::View(text.to_string()));
                    }
                    view.get_or_insert(text);
                }
                "race" => {
                    race.get_or_insert(text);
                }
                "steps" => {
                    steps.get_or_insert(text);
                }
                "show" => {
                    show.get_or_insert(text);
                }
                _ => {}
            }
        }
        o.races = race_link_of(view, race, steps, show);
        o
    }

    /// How a page should start: the full app (`None`), or an embed with these options. Reads a
    /// query string (`?embed&controls=step,replicas&chart=0`): `embed` present and not
    /// switched off ([`is_on`]), its pairs read by [`EmbedOptions::read`].
    pub fn from_query(query: &str) -> Option<EmbedOptions> {
        let params = parse_params(query.trim_start_matches('?'));
        let on = params
            .iter()
            .find(|(k, _)| k == "embed")
            .is_some_and(|(_, v)| v.is_empty() || is_on(v));
        on.then(|| read_params(&params))
    }

    /// A `<rollout-lab>` element's options from its attributes (`attr`: an attribute's value,
    /// `None` when absent): `buttons` or `controls`, `chart`, `explain`, `traffic`, `view`, `race`,
    /// `steps` and `show`, read by [`EmbedOptions::read`].
    pub fn from_attributes(attr: impl Fn(&str) -> Option<String>) -> EmbedOptions {
        // `buttons` first: HTML minifiers take `controls` for the boolean attribute of <video>
        // and leave it bare, which means the default controls rather than none.
        let controls = attr("buttons")
            .or_else(|| attr("controls"))
            .filter(|c| !c.trim().is_empty());
        // As the query's parameters: (key, value), present ones only.
        let mut params = Vec::new();
        if let Some(c) = controls {
            params.push(("controls".to_string(), c));
        }
        for key in [
            "chart", "explain", "traffic", "view", "race", "steps", "show",
        ] {
            if let Some(v) = attr(key) {
                params.push((key.to_string(), v));
            }
        }
        read_params(&params)
    }

    /// The options of the JavaScript `mount(element, options)` from its fields `controls` (a
    /// list of names or one comma-separated string), `chart`, `explain` and `traffic`, read by
    /// [`EmbedOptions::read`].
    pub fn from_fields(
        controls: Option<Given<'_>>,
        chart: Option<bool>,
        explain: Option<bool>,
        traffic: Option<bool>,
    ) -> EmbedOptions {
        let flag = |on: bool| Given::Text(if on { "true" } else { "false" });
        let pairs = [
            ("controls", controls),
            ("chart", chart.map(flag)),
            ("explain", explain.map(flag)),
            ("traffic", traffic.map(flag)),
        ];
        EmbedOptions::read(&mut pairs.into_iter().filter_map(|(k, v)| Some((k, v?))))
    }

    /// What was not understood, in words (`the unknown view `x`; …`), `None` when nothing:
    /// the `?embed` page's notice.
    pub fn ignored_words(&self) -> Option<String> {
        self.words(false)
    }

    /// The unknown controls in words (`the unknown control `x`; …`), `None` when every name
    /// was a control: what the element and `mount()` refuse.
    pub fn unknown_controls(&self) -> Option<String> {
        self.words(true)
    }

    /// What was ignored (only the unknown controls: `controls_only`), `; ` between, `None`
    /// when nothing.
    fn words(&self, controls_only: bool) -> Option<String> {
        let mut out = String::new();
        for i in &self.ignored {
            let (what, name) = match i {
                Ignored::Control(name) => ("control", name),
                Ignored::View(_) if controls_only => continue,
                Ignored::View(view) => ("view", view),
            };
            if !out.is_empty() {
                out.push_str("; ");
            }
            for part in ["the unknown ", what, " `", name, "`"] {
                out.push_str(part);
            }
        }
        (!out.is_empty()).then_some(out)
    }

    /// Whether a control is shown.
    pub fn has(&self, c: Control) -> bool {
        self.controls.contains(&c)
    }

    /// The query string (without `?`) that asks for these options.
    pub fn query(&self) -> String {
        let mut q = String::from("embed");
        if self.controls != Control::DEFAULT {
            q.push_str("&controls=");
            q.push_str(&self.names());
        }
        if !self.chart {
            q.push_str("&chart=0");
        }
        if !self.explain {
            q.push_str("&explain=0");
        }
        if self.traffic {
            q.push_str("&traffic=1");
        }
        q
    }

    /// The controls' names, separated by commas (as `controls=` and `buttons=` write them).
    pub fn names(&self) -> String {
        let names: Vec<&str> = self.controls.iter().map(|c| c.name()).collect();
        names.join(",")
    }

    /// Sets the controls from a list of names; unknown names are noted in `ignored`.
    pub fn set_controls(&mut self, names: &mut dyn Iterator<Item = &str>) {
        // The controls named, one bit each (`Control as u16`).
        let mut wanted = 0u16;
        for n in names {
            let n = n.trim();
            if n.is_empty() {
                continue;
            }
            match Control::parse(n) {
                Some(c) => wanted |= 1 << c as u16,
                None => self.ignored.push(Ignored::Control(n.to_string())),
            }
        }
        self.controls = Control::ALL
            .into_iter()
            .filter(|&c| wanted & (1 << c as u16) != 0)
            .collect();
    }
}

/// The options of a query's parsed parameters (or an element's attributes, as such pairs).
fn read_params(params: &[(String, String)]) -> EmbedOptions {
    EmbedOptions::read(
        &mut params
            .iter()
            .map(|(k, v)| (k.as_str(), Given::Text(v.as_str()))),
    )
}

/// Whether an embed option's value switches something on: anything but `0`, `false`, `no` or
/// `off`, in any case (an element's attribute present without a value is on). One rule for a
/// link's query and the element's attributes, so `?chart=OFF` and `chart="OFF"` agree.
pub fn is_on(value: &str) -> bool {
    !matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "0" | "false" | "no" | "off"
    )
}

/// What a query asks the Races view for (`view=races&race=ID&steps=…`, `None` without
/// `view=races`): the one reading of the app page's address, `?embed`'s and a
/// `<rollout-lab view="races">`'s attributes ([`EmbedOptions::read`]).
pub fn race_link(query: &str) -> Option<RaceLink> {
    let params = parse_params(query.trim_start_matches('?'));
    read_params(&params).races
}

/// The Races view's start from a `view`, a `race`, `steps` and `show`: `None` unless `view` is
/// `races` (around spaces).
fn race_link_of(
    view: Option<&str>,
    race: Option<&str>,
    steps: Option<&str>,
    show: Option<&str>,
) -> Option<RaceLink> {
    (view.map(str::trim) == Some("races")).then(|| RaceLink {
        race: race.map(String::from),
        steps: steps.map(String::from),
        show: show.map(String::from),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An element with these attributes.
    fn as_attributes(attrs: &[(&str, &str)]) -> EmbedOptions {
        EmbedOptions::from_attributes(|name| {
            attrs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        })
    }

    #[test]
    fn the_query() {
        assert_eq!(EmbedOptions::from_query("?preset=x"), None);
        assert_eq!(EmbedOptions::from_query("?embed=0"), None);
        assert_eq!(
            EmbedOptions::from_query("?embed"),
            Some(EmbedOptions::default())
        );
        let o = EmbedOptions::from_query("?embed=1&controls=replicas,STEP,bogus,maxSurge&chart=0")
            .unwrap();
        assert_eq!(
            o.controls,
            vec![Control::Step, Control::Replicas, Control::MaxSurge]
        );
        assert!(!o.chart && o.explain);
        assert_eq!(o.ignored, vec![Ignored::Control("bogus".into())]);
        assert_eq!(
            o.ignored_words().as_deref(),
            Some("the unknown control `bogus`")
        );
        assert_eq!(o.query(), "embed&controls=step,replicas,maxSurge&chart=0");
        assert_eq!(
            EmbedOptions::from_query(&format!("?{}", o.query()))
                .unwrap()
                .controls,
            o.controls
        );
        assert_eq!(EmbedOptions::default().query(), "embed");
        // Switched off as the element's attributes are, in any case.
        let o = EmbedOptions::from_query("?embed=On&chart=OFF&explain=No").unwrap();
        assert!(!o.chart && !o.explain);
        assert_eq!(EmbedOptions::from_query("?embed=FALSE"), None);
        // An empty `controls=` in a query: no controls (the element's empty one is the default).
        assert_eq!(
            EmbedOptions::from_query("?embed&controls=")
                .unwrap()
                .controls,
            []
        );
        // What was not understood is noted in the order met.
        let o = EmbedOptions::from_query("?embed&view=x&controls=bogus,play").unwrap();
        assert_eq!(
            o.ignored_words().as_deref(),
            Some("the unknown view `x`; the unknown control `bogus`")
        );
        // The last `controls` wins; what the others ignored is still noted.
        let o = EmbedOptions::from_query("?embed&controls=nope&controls=play").unwrap();
        assert_eq!(o.controls, [Control::Play]);
        assert_eq!(
            o.unknown_controls().as_deref(),
            Some("the unknown control `nope`")
        );
    }

    #[test]
    fn the_races_view() {
        let o = EmbedOptions::from_query(
            "?embed&view=races&race=conflict&steps=setImage%20web:2,tick&show=norv",
        )
        .unwrap();
        let want = RaceLink {
            race: Some("conflict".into()),
            steps: Some("setImage web:2,tick".into()),
            show: Some("norv".into()),
        };
        assert_eq!(o.races.as_ref(), Some(&want));
        assert!(o.ignored.is_empty());
        assert_eq!(
            race_link("?view=races&race=conflict&steps=setImage%20web:2,tick&show=norv"),
            Some(want.clone())
        );
        assert_eq!(
            as_attributes(&[
                ("view", "races"),
                ("race", "conflict"),
                ("steps", "setImage web:2,tick"),
                ("show", "norv")
            ])
            .races,
            Some(want)
        );
        assert_eq!(race_link("?view=plan&race=conflict"), None);
        assert_eq!(race_link("?view=races"), Some(RaceLink::default()));
        // The first `view`, `race` and `steps` count.
        assert_eq!(
            race_link("?view=races&race=a&view=plan&race=b"),
            Some(RaceLink {
                race: Some("a".into()),
                ..RaceLink::default()
            })
        );
        let o = EmbedOptions::from_query("?embed&view=stage").unwrap();
        assert_eq!(o.ignored, [Ignored::View("stage".into())]);
        assert_eq!(
            o.ignored_words().as_deref(),
            Some("the unknown view `stage`")
        );
        assert_eq!(o.races, None);
        // An unknown view is no unknown control: the element does not refuse it.
        assert_eq!(o.unknown_controls(), None);
    }

    /// The same options given to each door read the same.
    #[test]
    fn every_door_reads_alike() {
        let query = EmbedOptions::from_query(
            "?embed&controls=Replicas,step,nope&chart=OFF&explain=no&traffic=1",
        )
        .unwrap();
        let element = as_attributes(&[
            ("controls", "Replicas,step,nope"),
            ("chart", "OFF"),
            ("explain", "no"),
            ("traffic", ""),
        ]);
        let list = ["Replicas".to_string(), "step".into(), "nope".into()];
        let script = EmbedOptions::from_fields(
            Some(Given::List(&list)),
            Some(false),
            Some(false),
            Some(true),
        );
        assert_eq!(query.controls, [Control::Step, Control::Replicas]);
        assert!(!query.chart && !query.explain && query.traffic);
        // The query it writes asks for the same.
        assert_eq!(
            EmbedOptions::from_query(&query.query()).map(|o| o.traffic),
            Some(true)
        );
        assert_eq!(query.ignored, [Ignored::Control("nope".into())]);
        assert_eq!(element, query);
        assert_eq!(script, query);
        assert_eq!(
            script.unknown_controls().as_deref(),
            Some("the unknown control `nope`")
        );
        // `controls` as text in `mount()` reads as the query's.
        let text =
            EmbedOptions::from_fields(Some(Given::Text("Replicas,step,nope")), None, None, None);
        assert_eq!(text.controls, query.controls);
        assert_eq!(text.ignored, query.ignored);
        assert!(text.chart && text.explain && !text.traffic);
        // Nothing given: the defaults, at every door.
        assert_eq!(as_attributes(&[]), EmbedOptions::default());
        assert_eq!(
            EmbedOptions::from_fields(None, None, None, None),
            EmbedOptions::default()
        );
        // The Races view, in the query and in the attributes.
        let query = EmbedOptions::from_query("?embed&view=races&race=conflict&steps=tick").unwrap();
        let element = as_attributes(&[("view", "races"), ("race", "conflict"), ("steps", "tick")]);
        assert_eq!(element, query);
        assert_eq!(
            query.races.as_ref().and_then(|r| r.steps.as_deref()),
            Some("tick")
        );
        // An unknown view: noted alike, which the element's door then drops.
        assert_eq!(
            as_attributes(&[("view", "stage")]),
            EmbedOptions::from_query("?embed&view=stage").unwrap()
        );
    }

    #[test]
    fn case_and_presence() {
        // `?chart=OFF` and `chart="OFF"` agree; an attribute without a value is on.
        for off in ["0", "false", "FALSE", " no ", "off", "OFF", " No "] {
            assert!(!is_on(off), "{off}");
            assert!(
                !EmbedOptions::from_query(&format!("?embed&chart={off}"))
                    .unwrap()
                    .chart
            );
            assert!(!as_attributes(&[("chart", off)]).chart);
        }
        for on in ["", "1", "true", "yes", "on", "anything"] {
            assert!(is_on(on), "{on}");
            assert!(as_attributes(&[("chart", on), ("explain", on)]).chart);
        }
        assert!(EmbedOptions::from_query("?embed&explain").unwrap().explain);
        // Names in any case, trimmed.
        assert_eq!(Control::parse(" MAXSURGE "), Some(Control::MaxSurge));
        assert_eq!(Control::parse("max-surge"), None);
    }

    /// The element: `buttons` before `controls`, and an empty one (`controls` left bare by a
    /// minifier) is the default.
    #[test]
    fn the_elements_buttons() {
        let o = as_attributes(&[("buttons", "play"), ("controls", "step")]);
        assert_eq!(o.controls, [Control::Play]);
        let o = as_attributes(&[("controls", "")]);
        assert_eq!(o.controls, Control::DEFAULT);
        let o = as_attributes(&[("buttons", " "), ("controls", "reset")]);
        assert_eq!(o.controls, Control::DEFAULT);
        let o = as_attributes(&[("buttons", "round,bogus,other")]);
        assert_eq!(o.controls, [Control::Round]);
        assert_eq!(
            o.unknown_controls().as_deref(),
            Some("the unknown control `bogus`; the unknown control `other`")
        );
        // A list item is one name, commas and all.
        let list = ["step,play".to_string(), String::new()];
        let o = EmbedOptions::from_fields(Some(Given::List(&list)), None, None, None);
        assert_eq!(o.controls, []);
        assert_eq!(
            o.unknown_controls().as_deref(),
            Some("the unknown control `step,play`")
        );
    }
}
