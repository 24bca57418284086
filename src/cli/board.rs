//! `tiao board`: a diagram of a position, as text on stdout or as an SVG picture.

use clap::Args;
use tiao::game::Variant;
use tiao::render::board::{self, Style};
use tiao::render::morris;

#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  tiao board --moves \"32-28 19-23 28x19\"
  tiao board --fen \"W:W28,K40:B12,19\" --svg position.svg
  tiao board -v russian --moves \"c3-d4 f6-e5 d4xf6\" --svg - > russian.svg

The last of --moves is marked: its from and to squares highlighted, an arrow along its path and
a cross on each captured piece. Coordinates are written as the variant writes squares: numbers
on 10x10 and english, files and ranks on russian, brazilian and duoyibu. Nine Men's Morris
(-v morris, --fen taking its position string) is drawn as its three squares, with the men in
hand and the last move: its points highlighted, an arrow for a step, a cross on a removed man.")]
pub struct BoardArgs {
    #[command(flatten)]
    game: super::GameArgs,
    /// The position; the last of its moves is marked.
    #[command(flatten)]
    position: super::PositionArgs,
    /// Write an SVG picture to this file ('-': standard output) instead of the text diagram.
    #[arg(long, value_name = "FILE")]
    svg: Option<String>,
    /// Draw the board from Black's side.
    #[arg(long)]
    flip: bool,
    /// Leave the coordinates out.
    #[arg(long)]
    no_coordinates: bool,
    /// Side of a square in pixels (SVG), 4..=1000.
    #[arg(long, default_value_t = 50.0, value_parser = square_px)]
    square: f64,
}

/// Writes an SVG picture to `path` ('-': standard output).
fn write_svg(path: &str, svg: &str) -> Result<(), String> {
    if path == "-" {
        print!("{svg}");
        Ok(())
    } else {
        std::fs::write(path, svg).map_err(|e| format!("{path}: {e}"))
    }
}

/// `--square`: pixels, a finite number from 4 to 1000.
fn square_px(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && (4.0..=1000.0).contains(&v) => Ok(v),
        _ => Err(format!("{text} is not a number of pixels in 4..=1000")),
    }
}

pub fn run(args: BoardArgs) -> Result<(), String> {
    let kind = args.game.kind();
    let moves = args.position.moves();
    let style = Style {
        flip: args.flip,
        coordinates: !args.no_coordinates,
        square: args.square,
    };
    if kind.variant == Variant::Morris {
        let d = morris::diagram(args.position.fen.as_deref(), &moves)?;
        return match &args.svg {
            Some(path) => write_svg(path, &morris::svg(&d, &style)),
            None => {
                print!("{}", morris::text(&d));
                Ok(())
            }
        };
    }
    let d = board::diagram(kind, args.position.fen.as_deref(), &moves)?;
    match &args.svg {
        Some(path) => write_svg(path, &board::svg(&d, &style))?,
        None => {
            print!("{}", board::text(&d, args.flip));
            println!("{}", d.fen);
            if let Some(m) = &d.last_move {
                println!("last move {}", m.text);
            }
        }
    }
    Ok(())
}
