//! The teacher's page: every lesson with its link, the documentation section it follows and
//! what it teaches, and every challenge, as Markdown. README.md carries it between
//! `<!-- lessons:start -->` and `<!-- lessons:end -->`; a test keeps the two equal.

use super::{challenges, lessons};

/// The teacher's page as Markdown, links relative to the app's page (`?lesson=ID`).
pub fn markdown() -> String {
    let mut out =
        String::from("| lesson | link | follows | teaches |\n| --- | --- | --- | --- |\n");
    for l in lessons() {
        out.push_str(&format!(
            "| {} | [`?lesson={}`](?lesson={}) | [{}]({}) | {} |\n",
            l.title,
            l.id,
            l.id,
            l.doc.title,
            l.doc.url,
            l.summary().unwrap_or_else(|e| e)
        ));
    }
    out.push_str("\n| level | challenge | link | task |\n| --- | --- | --- | --- |\n");
    for c in challenges() {
        out.push_str(&format!(
            "| {} | {} | [`?challenge={}`](?challenge={}) | {} |\n",
            c.level,
            c.title,
            c.id,
            c.id,
            c.story_text().unwrap_or_else(|e| e)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    /// README.md's lesson table is the generated one, so it lists every lesson and challenge.
    #[test]
    fn the_readme_lists_every_lesson_and_challenge() {
        let readme = include_str!("../../../../README.md");
        let start = "<!-- lessons:start -->\n";
        let section = readme
            .split_once(start)
            .and_then(|(_, rest)| rest.split_once("<!-- lessons:end -->"))
            .map(|(s, _)| s)
            .expect("README.md has the lessons section");
        assert_eq!(
            section,
            super::markdown(),
            "regenerate it: cargo test -p rollout-core --lib lessons::teacher -- --ignored"
        );
    }

    /// Writes the section into README.md (run by hand after changing a lesson).
    #[test]
    #[ignore]
    fn write_readme_section() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
        let readme = std::fs::read_to_string(path).unwrap();
        let (head, rest) = readme.split_once("<!-- lessons:start -->\n").unwrap();
        let (_, tail) = rest.split_once("<!-- lessons:end -->").unwrap();
        let out = format!(
            "{head}<!-- lessons:start -->\n{}<!-- lessons:end -->{tail}",
            super::markdown()
        );
        std::fs::write(path, out).unwrap();
    }
}
