//! `tiao gui`: the board in the browser. Starts the local web server of `tiao::gui`, prints its
//! address and opens the default browser on it (unless `--no-open`); serves until interrupted.

use clap::Args;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  tiao gui                          # http://127.0.0.1:8737/ in the default browser
  tiao gui --port 0 --no-open       # any free port; open the address printed yourself
  tiao gui --threads 2 --hash 256   # each page's engine: 2 threads, a 256 MiB table

The page plays every variant (the five draughts variants and Nine Men's Morris): click to move,
play the engine or let it play itself, take back, set up a FEN, load and save PDN, analyse with
live lines, draw the evaluation curve. It serves only this machine unless --host says otherwise;
requests from other web pages (another Origin or Host) are refused. See docs/gui.md.")]
pub struct GuiArgs {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = tiao::gui::DEFAULT_PORT)]
    port: u16,
    /// The address to listen on. Anything but a loopback address lets other machines play with
    /// this engine (a warning says so); the page must then be opened by that address.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    host: IpAddr,
    /// Do not open the browser: print the address only.
    #[arg(long)]
    no_open: bool,
    /// Search threads of each page's engine.
    #[arg(long, default_value_t = 1, value_parser = super::whole::<usize>(1, super::MAX_THREADS))]
    threads: usize,
    /// Transposition table of each page's engine, MiB.
    #[arg(long, default_value_t = 64, value_parser = super::whole::<usize>(1, super::MAX_HASH_MIB))]
    hash: usize,
    #[command(flatten)]
    egdb: super::EgdbArgs,
    /// A pattern-weight file (`tiao tune --out`) to evaluate with instead of the embedded
    /// weights of its family; repeatable, one file a family (the other families keep their
    /// embedded weights).
    #[arg(long, value_name = "FILE")]
    weights: Vec<std::path::PathBuf>,
    /// The engine plays without its opening book.
    #[arg(long)]
    no_book: bool,
}

/// Opens `url` in the default browser (a failure is only reported).
fn open_browser(url: &str) {
    let command = if cfg!(target_os = "macos") {
        std::process::Command::new("open").arg(url).spawn()
    } else if cfg!(windows) {
        std::process::Command::new("cmd")
            .args(["/C", "start", "", url])
            .spawn()
    } else {
        std::process::Command::new("xdg-open").arg(url).spawn()
    };
    if let Err(e) = command {
        eprintln!("could not open a browser ({e}): open {url} yourself");
    }
}

pub fn run(args: GuiArgs) -> Result<(), String> {
    super::warn_threads(args.threads);
    let engine = tiao::engine::EngineOptions {
        threads: args.threads,
        hash_mib: args.hash,
        egdb: args.egdb.checked()?,
        egdb_check: tiao::engine::TableCheck::Background,
        book: tiao::engine::BookOptions {
            enabled: !args.no_book,
            ..tiao::engine::BookOptions::default()
        },
        weights: args.weights,
        ..Default::default()
    };
    if !args.host.is_loopback() {
        eprintln!(
            "warning: listening on {}: other machines can reach this server and play with its engine",
            args.host
        );
    }
    let server = tiao::gui::Server::bind(tiao::gui::Config {
        addr: SocketAddr::new(args.host, args.port),
        engine,
    })
    .map_err(|e| e.to_string())?;
    let url = server.url();
    println!("tiao gui: {url}  (Ctrl-C to stop)");
    if !args.no_open {
        open_browser(&url);
    }
    server.run();
    Ok(())
}
