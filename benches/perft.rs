//! Perft per draughts variant (bulk counting, one thread), and make-every-leaf for international.
//! Sized for a 2-core machine: each case is a few hundred milliseconds per iteration.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use tiao::draughts::notation::fen;
use tiao::draughts::position::Position;
use tiao::draughts::rules::{Brazilian, Duoyibu, English, International, Rules, Russian};
use tiao::perft::perft;

fn case<R: Rules>(c: &mut Criterion, name: &str, f: Option<&str>, depth: u32, bulk: bool) {
    let pos = f
        .map(|f| fen::parse::<R>(f).unwrap())
        .unwrap_or_else(Position::<R>::start);
    let leaves = perft(&pos, depth, bulk);
    c.bench_function(&format!("perft/{name}/d{depth}/{leaves}-leaves"), |b| {
        b.iter(|| perft(black_box(&pos), depth, bulk))
    });
}

fn benches(c: &mut Criterion) {
    case::<International>(c, "international-start", None, 8, true);
    case::<International>(c, "international-start-make-leaves", None, 7, false);
    case::<International>(
        c,
        "international-woldouby",
        Some("W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26"),
        12,
        true,
    );
    case::<International>(
        c,
        "international-kings",
        Some("B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46"),
        6,
        true,
    );
    case::<Brazilian>(c, "brazilian-start", None, 9, true);
    case::<Russian>(c, "russian-start", None, 9, true);
    case::<Duoyibu>(c, "duoyibu-start", None, 9, true);
    case::<English>(c, "english-start", None, 10, true);
}

criterion_group! {
    name = perft_benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(4));
    targets = benches
}
criterion_main!(perft_benches);
