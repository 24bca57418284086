//! `tiao dxp`: international draughts games over the network with the DamExchange Protocol, as a
//! follower (TCP server, the default) or an initiator (`--connect`). Logs go to stderr (or
//! `--log`), one line per event; stdout gets one line per finished game and the final score.

use clap::Args;
use std::io::Write;
use std::net::TcpListener;
use std::path::PathBuf;
use std::time::Duration;
use tiao::protocol::dxp::{
    self,
    clock::Caps,
    game::Record,
    log::Log,
    message::Board,
    session::{ColorChoice, Config, Plan},
};
use tiao::variant::{GameKind, Variant};

#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  tiao dxp                                           # follower on 127.0.0.1:27531
  tiao dxp --listen 0.0.0.0:27531 --games 10 --pdn dxp.pdn
  tiao dxp --connect 192.168.1.20:27531 --games 2 --time 10 --moves 75

See docs/dxp.md for clocks, take-backs and the log.")]
pub struct DxpArgs {
    #[command(flatten)]
    egdb: super::EgdbArgs,
    #[command(flatten)]
    weights: super::WeightsArgs,
    /// Follower: listen on HOST:PORT and answer game requests (the default role).
    #[arg(long, value_name = "HOST:PORT", default_value_t = format!("127.0.0.1:{}", dxp::DEFAULT_PORT))]
    listen: String,
    /// Initiator: connect to a follower at HOST:PORT and ask for games.
    #[arg(long, value_name = "HOST:PORT")]
    connect: Option<String>,
    /// Initiator: games to play (default 1). Follower: exit after this many games (default:
    /// serve until killed).
    #[arg(long, value_parser = super::whole::<u32>(1, u32::MAX as u64))]
    games: Option<u32>,
    /// Initiator: thinking time per player for the whole game, in minutes (0..=999).
    #[arg(long, default_value_t = 5, value_parser = super::whole::<u16>(0, 999))]
    time: u16,
    /// Initiator: moves of the whole game (0: no limit); at the limit the game is adjudicated.
    #[arg(long, default_value_t = 0, value_parser = super::whole::<u16>(0, 999))]
    moves: u16,
    /// Initiator: tiao's colour (alternate: white in odd games, black in even ones).
    #[arg(long, value_enum, default_value = "alternate")]
    color: ColorChoice,
    /// Initiator: start position (PDN FEN), sent as GAMEREQ position B; default: the initial
    /// position (A).
    #[arg(long)]
    fen: Option<String>,
    /// Variant: DXP is defined for international draughts only.
    #[arg(long, short, default_value = "international")]
    variant: Variant,
    /// Name sent to the peer and written in the PDN.
    #[arg(long, default_value = concat!("tiao ", env!("CARGO_PKG_VERSION")))]
    name: String,
    /// Search threads, 1..=256.
    #[arg(long, short, default_value_t = 1, value_parser = super::whole::<usize>(1, super::MAX_THREADS))]
    threads: usize,
    /// Transposition table size in MiB, 1..=65536.
    #[arg(long, default_value_t = 64, value_parser = super::whole::<usize>(1, super::MAX_HASH_MIB))]
    hash: usize,
    /// Append every finished game to this PDN file.
    #[arg(long)]
    pdn: Option<PathBuf>,
    /// Append the event log to this file instead of stderr.
    #[arg(long)]
    log: Option<PathBuf>,
    /// Cap every search at this depth, 1..=127 (quick games and tests; the clock still applies).
    #[arg(long, value_parser = super::whole::<u32>(1, super::MAX_DEPTH))]
    depth: Option<u32>,
    /// Cap every move at this many seconds, or with a unit (500ms) (quick games and tests; the
    /// clock still applies).
    #[arg(long, value_name = "SECONDS", value_parser = super::positive_seconds)]
    move_time: Option<f64>,
    /// Test only: our clock for every game, in seconds (or with a unit), instead of the GAMEREQ's
    /// minutes.
    #[arg(long, hide = true, value_name = "SECONDS", value_parser = super::seconds)]
    clock: Option<f64>,
    /// Test only: the peer's clock for every game, in seconds (or with a unit), instead of the
    /// GAMEREQ's minutes.
    #[arg(long, hide = true, value_name = "SECONDS", value_parser = super::seconds)]
    peer_clock: Option<f64>,
    /// Close a connection on which the peer sends no game message for this many seconds (or
    /// with a unit: 1500ms) while no game waits for its move (its own clock rules then).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = super::positive_seconds)]
    idle_timeout: f64,
}

/// A game's one-line summary.
fn summary_line(r: &Record) -> String {
    let who = match r.our_points() {
        Some(2) => "tiao won",
        Some(1) => "draw",
        Some(_) => "tiao lost",
        None => "result unknown",
    };
    format!(
        "game {}: {} (white) - {} (black) {} [{who}, {} plies]: {}",
        r.number,
        r.white,
        r.black,
        r.outcome.pdn(),
        r.moves.len(),
        r.termination
    )
}

/// `n game(s)`.
fn games(n: usize) -> String {
    format!("{n} game{}", if n == 1 { "" } else { "s" })
}

/// The score line of a set of games.
fn score_line(records: &[Record]) -> String {
    let (mut w, mut d, mut l, mut u) = (0, 0, 0, 0);
    for r in records {
        match r.our_points() {
            Some(2) => w += 1,
            Some(1) => d += 1,
            Some(_) => l += 1,
            None => u += 1,
        }
    }
    let unknown = if u > 0 {
        format!(", {u} without result")
    } else {
        String::new()
    };
    format!(
        "score: tiao +{w} ={d} -{l} in {} ({} points of {}){unknown}",
        games(records.len()),
        2 * w + d,
        2 * (w + d + l)
    )
}

pub fn run(args: DxpArgs) -> Result<(), String> {
    if args.variant != Variant::International {
        return Err(format!(
            "DXP is defined for international draughts (10x10) only; variant {} is not supported",
            args.variant
        ));
    }
    let cfg = Config {
        name: args.name.clone(),
        caps: Caps {
            depth: args.depth,
            move_time: args.move_time.map(Duration::from_secs_f64),
        },
        clock: args.clock.map(Duration::from_secs_f64),
        peer_clock: args.peer_clock.map(Duration::from_secs_f64),
        idle_timeout: Duration::from_secs_f64(args.idle_timeout),
        pdn: args.pdn.clone(),
    };
    let log = match &args.log {
        Some(p) => Log::file(p).map_err(|e| format!("cannot open the log {}: {e}", p.display()))?,
        None => Log::stderr(),
    };
    args.weights.choose(GameKind::new(Variant::International))?;
    super::warn_threads(args.threads);
    let mut engine =
        dxp::engine(args.threads, args.hash, args.egdb.checked()?).map_err(super::engine_error)?;
    super::warn_tables(&engine);
    let mut on_record = |r: &Record| {
        println!("{}", summary_line(r));
        let _ = std::io::stdout().flush();
    };
    match &args.connect {
        Some(addr) => {
            let start = match &args.fen {
                Some(f) => Some(
                    <Board as tiao::game::Game>::from_fen(f)
                        .map_err(|e| format!("--fen {f:?}: {e}"))?,
                ),
                None => None,
            };
            let plan = Plan {
                games: args.games.unwrap_or(1),
                minutes: args.time,
                moves: args.moves,
                color: args.color,
                start,
            };
            let wanted = plan.games;
            let summary = dxp::client::play(addr, plan, &mut engine, &cfg, &log, &mut on_record)?;
            println!("{}", score_line(&summary.records));
            let played = summary.records.len() as u32;
            if played < wanted {
                return Err(format!(
                    "{played} of {wanted} games played: {}",
                    summary.end
                ));
            }
            Ok(())
        }
        None => {
            if args.fen.is_some() {
                return Err("--fen is for the initiator (--connect); the follower plays the positions it is sent".into());
            }
            let listener = TcpListener::bind(&args.listen)
                .map_err(|e| format!("cannot listen on {}: {e}", args.listen))?;
            let local = listener
                .local_addr()
                .map_err(|e| format!("cannot listen on {}: {e}", args.listen))?;
            log.line(&format!(
                "listening on {local} as follower ({}{})",
                cfg.name,
                match args.games {
                    Some(n) => format!(", stops after {}", games(n as usize)),
                    None => String::new(),
                }
            ));
            let records = dxp::server::serve(
                &listener,
                &mut engine,
                &cfg,
                &log,
                args.games,
                &mut on_record,
            );
            println!("{}", score_line(&records));
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tiao::game::color::Color;
    use tiao::protocol::dxp::game::Outcome;

    #[test]
    fn score_counts_from_tiao_side() {
        let r = |ours, outcome| Record {
            number: 1,
            white: "a".into(),
            black: "b".into(),
            ours,
            setup_fen: None,
            first: Color::White,
            moves: vec![],
            outcome,
            termination: String::new(),
        };
        let games = [
            r(Color::White, Outcome::Win(Color::White)),
            r(Color::Black, Outcome::Win(Color::White)),
            r(Color::Black, Outcome::Draw),
            r(Color::Black, Outcome::Unknown),
        ];
        assert_eq!(
            score_line(&games),
            "score: tiao +1 =1 -1 in 4 games (3 points of 6), 1 without result"
        );
    }
}
