//! Criterion benches of the search's hot paths, sized for a 2-core machine (a few seconds each):
//! a fixed-depth search of the international start position, and the evaluation of a
//! middlegame position per family of variants.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use tiao::draughts::position::Position;
use tiao::draughts::rules::{English, International, Russian};
use tiao::game::Evaluate;
use tiao::game::Game;
use tiao::search::search_to_depth;
use tiao::search::tt::Tt;

fn search(c: &mut Criterion) {
    let mut g = c.benchmark_group("search");
    g.sample_size(10).measurement_time(Duration::from_secs(4));
    let pos = Position::<International>::start();
    let tt = Tt::new(16);
    g.bench_function("international start depth 9", |b| {
        b.iter(|| search_to_depth(black_box(&pos), 9, &tt).nodes)
    });
    g.finish();
}

fn eval(c: &mut Criterion) {
    let mut g = c.benchmark_group("eval");
    g.measurement_time(Duration::from_secs(2));
    let intl = Position::<International>::from_fen(
        "W:W27,30,31,32,34,35,37,40,41,43,47,48,49,50:B1,2,3,5,7,9,11,14,16,17,18,19,23,24",
    )
    .unwrap();
    g.bench_function("international middlegame", |b| {
        b.iter(|| black_box(&intl).evaluate())
    });
    let russian =
        Position::<Russian>::from_fen("W:Wh6,a5,f4,a3,d2,f2,a1,c1,g1:Bb8,d8,f8,a7,c7,e7,f6,c5,h2")
            .unwrap();
    g.bench_function("russian middlegame", |b| {
        b.iter(|| black_box(&russian).evaluate())
    });
    let english =
        Position::<English>::from_fen("B:W5,14,23,28,29,30,31,32:B1,2,3,4,6,8,20,21").unwrap();
    g.bench_function("english middlegame", |b| {
        b.iter(|| black_box(&english).evaluate())
    });
    g.finish();
}

criterion_group!(benches, search, eval);
criterion_main!(benches);
