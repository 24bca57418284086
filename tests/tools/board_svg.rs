//! The SVG outputs are well-formed XML with what they should show: every variant's board with
//! its pieces, kings, coordinates and last move (also flipped, also through `tiao board`), and the
//! evaluation plot of a reviewed game with its marks.

use roxmltree::Document;
use tiao::analysis::review::{self, Thresholds};
use tiao::analysis::{Settings, analyze_batch};
use tiao::game::Variant;
use tiao::render::board::{Style, diagram, svg};
use tiao::render::plot::{self, EvalPlot};
use tiao::search::Limits;
use tiao::variant::GameKind;

/// Parses an SVG document and counts its elements by name.
fn count(text: &str, name: &str) -> usize {
    let doc = Document::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter(|n| n.is_element() && n.tag_name().name() == name)
        .count()
}

#[test]
fn every_variant_draws_well_formed_boards() {
    // Variant, FEN, moves, pieces left, algebraic coordinates.
    type Case<'a> = (Variant, Option<&'a str>, &'a [&'a str], usize, bool);
    let cases: [Case; 5] = [
        (
            Variant::International,
            None,
            &["32-28", "19-23", "28x19"],
            39,
            false,
        ),
        (Variant::English, None, &["11-15", "23-19"], 24, false),
        (
            Variant::Russian,
            Some("W:WKc3,e3:Bd4,f6,b8"),
            &["c3:h8"],
            3,
            true,
        ),
        (Variant::Brazilian, None, &["c3-d4"], 24, true),
        (
            Variant::Duoyibu,
            Some("W:WKa1:BKh8,c3"),
            &["a1:d4"],
            2,
            true,
        ),
    ];
    for (variant, fen, moves, pieces, algebraic) in cases {
        let d = diagram(GameKind::new(variant), fen, moves).unwrap();
        assert_eq!(d.algebraic, algebraic, "{variant}");
        let kings = d
            .squares
            .iter()
            .filter(|s| s.piece.is_some_and(|p| p.king))
            .count();
        for flip in [false, true] {
            let style = Style {
                flip,
                ..Style::default()
            };
            let s = svg(&d, &style);
            // Two circles per piece (disc and ring), a crown per king, one arrow.
            assert_eq!(count(&s, "circle"), 2 * pieces, "{variant}");
            assert_eq!(count(&s, "polygon"), kings, "{variant}");
            assert_eq!(count(&s, "polyline"), 1, "{variant}");
            let texts = count(&s, "text");
            let squares = (d.size * d.size / 2) as usize;
            let want = if algebraic {
                2 * d.size as usize
            } else {
                squares
            };
            assert_eq!(texts, want, "{variant}: coordinates");
        }
        let bare = svg(
            &d,
            &Style {
                coordinates: false,
                ..Style::default()
            },
        );
        assert_eq!(count(&bare, "text"), 0);
    }
}

#[test]
fn captures_are_crossed_out() {
    let d = diagram(
        GameKind::new(Variant::International),
        Some("W:W28,33,K40,45:BK4,13,23,24"),
        &["40x9"],
    )
    .unwrap();
    let s = svg(&d, &Style::default());
    // One cross per captured piece (13 and 23), the arrow through the turning square.
    assert_eq!(
        count(&s, "path"),
        1 + 2,
        "the arrowhead marker and two crosses"
    );
    let doc = Document::parse(&s).unwrap();
    let arrow = doc
        .descendants()
        .find(|n| n.tag_name().name() == "polyline")
        .unwrap();
    assert_eq!(arrow.attribute("points").unwrap().split(' ').count(), 3);
}

/// Runs `tiao board ARGS`: (stdout, success).
fn board(args: &[&str]) -> (String, bool) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tiao"))
        .arg("board")
        .args(args)
        .output()
        .unwrap();
    (String::from_utf8(out.stdout).unwrap(), out.status.success())
}

#[test]
fn the_board_command_writes_svg() {
    let (s, ok) = board(&[
        "-v",
        "russian",
        "--moves",
        "c3-d4 f6-e5 d4xf6",
        "--svg",
        "-",
    ]);
    assert!(ok);
    assert_eq!(count(&s, "circle"), 2 * 23);
    let (t, _) = board(&["--moves", "32-28"]);
    assert!(t.contains("last move 32-28"), "{t}");
    assert!(!board(&["--moves", "32-29"]).1);
}

#[test]
fn the_evaluation_plot_is_well_formed_and_marks_mistakes() {
    let kind = GameKind::new(Variant::International);
    let game = review::game_of(&[
        "32-28", "17-22", "28x17", "11x22", "37-32", "16-21", "32-28",
    ]);
    let replayed = review::jobs(kind, &game).unwrap();
    let settings = Settings {
        jobs: 2,
        ..Settings::new(kind, Limits::depth(6))
    };
    let mut analyses = Vec::new();
    analyze_batch(
        &settings,
        &replayed.jobs,
        &mut |_, r| analyses.push(r.unwrap()),
        &mut |_| {},
    )
    .unwrap();
    let moves = review::review(&replayed, &analyses, &Thresholds::default());
    let judged = moves.iter().filter(|m| m.judgement.is_some()).count();
    assert!(judged >= 1);
    let p = EvalPlot::of_review("White & <Black>", &moves);
    assert_eq!(p.points.len(), moves.len() + 1);
    let s = plot::svg(&p, 5.0);
    // One circle per judged move, three in the legend.
    assert_eq!(count(&s, "circle"), judged + 3);
    assert_eq!(count(&s, "polyline"), 1);
    let doc = Document::parse(&s).unwrap();
    let title = doc
        .descendants()
        .find(|n| n.tag_name().name() == "title")
        .unwrap();
    assert_eq!(title.text(), Some("White & <Black>"));
}

#[test]
fn nine_mens_morris_is_drawn_too() {
    use tiao::render::morris;
    // White closes the top mill and removes Black's man on a1.
    let d = morris::diagram(None, &["a7", "a1", "d7", "d1", "g7xa1"]).unwrap();
    let last = d.last_move.as_ref().unwrap();
    assert_eq!((last.from, last.removed.is_some()), (None, true));
    for style in [
        Style::default(),
        Style {
            flip: true,
            coordinates: false,
            square: 30.0,
        },
    ] {
        let text = morris::svg(&d, &style);
        // The 32 lines of the board; 24 points: 20 empty, 4 men; 6 + 7 men in hand; the point
        // played highlighted; the removed man crossed out.
        assert_eq!(count(&text, "line"), 32);
        assert_eq!(count(&text, "circle"), 20 + 4 + 13 + 1);
        assert_eq!(count(&text, "path"), 2, "the arrowhead's and the cross");
    }
    // Through `tiao board`: the text diagram, and an SVG on stdout.
    let run = |more: &[&str]| {
        let mut args = vec!["-v", "morris", "--moves", "a7 a1 d7 d1 g7xa1"];
        args.extend_from_slice(more);
        let (out, ok) = board(&args);
        assert!(ok, "{out}");
        out
    };
    let text = run(&[]);
    assert!(text.starts_with("7 W-----------W-----------W"), "{text}");
    assert!(
        text.contains("in hand: White 6, Black 7; Black to move"),
        "{text}"
    );
    assert!(text.contains("last move g7xa1"), "{text}");
    assert_eq!(count(&run(&["--svg", "-"]), "line"), 32);
}
