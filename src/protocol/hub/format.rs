//! The lines the engine writes: `id`, `param`, `info`, `done`, `error`, and the extensions' replies.
//!
//! Every line is `<command> <key>=<value> ...` with values quoted only when needed
//! ([`message`]): no flags and no `=` outside quotes, because pydraughts splits each token of
//! `id`, `param`, `info` and `done` on `=` into exactly a key and a value. `done` always has
//! `move=` first and `ponder=` second (pydraughts reads them by position).
//!
//! Numbers follow Scan: `score` in men with two decimals from the side to move (a win in `p`
//! plies is `100 - p/100`), `time` in seconds with three decimals, `nps` in millions of nodes per
//! second with one decimal, `mean-depth` with one decimal. A field that is unknown is left out.

use super::syntax::message;
use crate::engine::{Done, Info};

/// The engine's name in `id`.
pub const NAME: &str = "tiao";
/// The authors in `id`.
pub const AUTHOR: &str = "the tiao authors";
/// The country in `id`.
pub const COUNTRY: &str = "unknown";

/// The type of a declared parameter, as `param` writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamType {
    Bool,
    Int {
        min: i64,
        max: i64,
    },
    Enum(Vec<String>),
    /// Any text (a path).
    String,
}

/// A parameter as the `hub` reply declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamDecl {
    pub name: &'static str,
    pub value: String,
    pub kind: ParamType,
}

/// `id name=tiao version=... author="..." country=... weights="..."` (the pattern weights
/// each draughts family reads, `family:checksum`: the embedded ones unless `--weights` chose a
/// file).
pub fn id_line() -> String {
    message(
        "id",
        &[
            ("name", NAME.to_string()),
            ("version", env!("CARGO_PKG_VERSION").to_string()),
            ("author", AUTHOR.to_string()),
            ("country", COUNTRY.to_string()),
            (
                "weights",
                crate::draughts::eval::weights::Family::ALL
                    .map(crate::draughts::eval::active::identity)
                    .join(" "),
            ),
        ],
    )
}

/// `param name=... value=... type=... [min= max=] [values="..."]`
pub fn param_line(p: &ParamDecl) -> String {
    let mut args = vec![("name", p.name.to_string()), ("value", p.value.clone())];
    match &p.kind {
        ParamType::Bool => args.push(("type", "bool".into())),
        ParamType::Int { min, max } => {
            args.push(("type", "int".into()));
            args.push(("min", min.to_string()));
            args.push(("max", max.to_string()));
        }
        ParamType::Enum(values) => {
            args.push(("type", "enum".into()));
            args.push(("values", values.join(" ")));
        }
        ParamType::String => args.push(("type", "string".into())),
    }
    message("param", &args)
}

/// `info depth= mean-depth= score= nodes= time= nps= [tbhits=] [book=yes] pv="..."`; `mv` writes
/// each move as the client numbers it. `tbhits` (endgame-table answers) only when the engine has
/// tables; `book=yes` only for a move from the opening book (`depth=0 nodes=0`).
pub fn info_line(info: &Info, mv: &dyn Fn(&str) -> String) -> String {
    let mut args = vec![("depth", info.depth.to_string())];
    if info.mean_depth > 0.0 {
        args.push(("mean-depth", format!("{:.1}", info.mean_depth)));
    }
    args.push(("score", info.score.to_hub()));
    args.push(("nodes", info.nodes.to_string()));
    args.push(("time", format!("{:.3}", info.time.as_secs_f64())));
    if info.nps > 0 {
        args.push(("nps", format!("{:.1}", info.nps as f64 / 1e6)));
    }
    if let Some(hits) = info.tb_hits {
        args.push(("tbhits", hits.to_string()));
    }
    if info.book {
        args.push(("book", "yes".to_string()));
    }
    if !info.pv.is_empty() {
        let pv: Vec<String> = info.pv.iter().map(|m| mv(&m.hub)).collect();
        args.push(("pv", pv.join(" ")));
    }
    message("info", &args)
}

/// `done move=... [ponder=...]`, or `None` when the search found no move (the loop never starts
/// a search without one).
pub fn done_line(done: &Done, mv: &dyn Fn(&str) -> String) -> Option<String> {
    let best = done.best.as_ref()?;
    let mut args = vec![("move", mv(&best.hub))];
    if let Some(p) = &done.ponder {
        args.push(("ponder", mv(&p.hub)));
    }
    Some(message("done", &args))
}

/// `error message="..."`
pub fn error_line(text: &str) -> String {
    message("error", &[("message", text.to_string())])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::MoveText;
    use crate::search::Score;
    use crate::search::score::win_in;
    use std::time::Duration;

    fn mt(s: &str) -> MoveText {
        MoveText {
            hub: s.into(),
            pdn: s.into(),
        }
    }

    #[test]
    fn info_as_scan_writes_it() {
        let info = Info {
            depth: 21,
            seldepth: 30,
            mean_depth: 20.84,
            score: Score(-1),
            nodes: 31_261_613,
            time: Duration::from_millis(3906),
            nps: 8_003_485,
            hashfull: 0,
            pv: vec![mt("32-28"), mt("17-22"), mt("28x17x22")],
            partial: false,
            tb_hits: None,
            book: false,
        };
        assert_eq!(
            info_line(&info, &|m| m.to_string()),
            "info depth=21 mean-depth=20.8 score=-0.01 nodes=31261613 time=3.906 nps=8.0 pv=\"32-28 17-22 28x17x22\""
        );
        let bare = Info {
            mean_depth: 0.0,
            nps: 0,
            pv: vec![],
            score: Score(win_in(5)),
            ..info
        };
        assert_eq!(
            info_line(&bare, &|m| m.to_string()),
            "info depth=21 score=99.95 nodes=31261613 time=3.906"
        );
        let hits = Info {
            tb_hits: Some(1234),
            ..bare
        };
        assert_eq!(
            info_line(&hits, &|m| m.to_string()),
            "info depth=21 score=99.95 nodes=31261613 time=3.906 tbhits=1234"
        );
        let book = Info {
            depth: 0,
            nodes: 0,
            time: Duration::ZERO,
            score: Score(12),
            pv: vec![mt("32-28")],
            tb_hits: None,
            book: true,
            ..hits
        };
        assert_eq!(
            info_line(&book, &|m| m.to_string()),
            "info depth=0 score=0.12 nodes=0 time=0.000 book=yes pv=32-28"
        );
    }

    #[test]
    fn done_has_the_move_first() {
        let mut d = Done {
            best: Some(mt("32-28")),
            ponder: Some(mt("17-22")),
            score: Score(0),
            depth: 3,
            nodes: 10,
            time: Duration::ZERO,
        };
        assert_eq!(
            done_line(&d, &|m| m.to_string()).unwrap(),
            "done move=32-28 ponder=17-22"
        );
        d.ponder = None;
        assert_eq!(
            done_line(&d, &|m| m.to_string()).unwrap(),
            "done move=32-28"
        );
        d.best = None;
        assert_eq!(done_line(&d, &|m| m.to_string()), None);
    }

    #[test]
    fn id_and_params_are_key_value_only() {
        let lines = [
            id_line(),
            param_line(&ParamDecl {
                name: "variant",
                value: "normal".into(),
                kind: ParamType::Enum(vec!["normal".into(), "russian".into()]),
            }),
            param_line(&ParamDecl {
                name: "threads",
                value: "1".into(),
                kind: ParamType::Int { min: 1, max: 256 },
            }),
        ];
        assert_eq!(
            lines[1],
            "param name=variant value=normal type=enum values=\"normal russian\""
        );
        for l in &lines {
            let parsed = super::super::syntax::Line::parse(l).unwrap();
            assert!(parsed.args.iter().all(|(_, v)| v.is_some()), "{l}");
            assert!(
                parsed
                    .args
                    .iter()
                    .all(|(_, v)| !v.as_ref().unwrap().contains('='))
            );
        }
        assert_eq!(
            error_line("bad \"x\""),
            "error message=\"bad 'x'\"".to_string()
        );
    }
}
