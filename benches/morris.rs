//! Nine Men's Morris perft (one thread): the start position in both counting conventions, with
//! bulk counting and with every leaf made, and positions of the moving and flying phases; and the
//! evaluation over the positions of a few pseudo-random games.
//! Sized for a 2-core machine: each case is a few hundred milliseconds per iteration at most.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use tiao::game::BulkCount;
use tiao::game::Evaluate;
use tiao::game::Game;
use tiao::morris::sample::random_positions;
use tiao::morris::{MorrisPosition, RemovalPly};
use tiao::perft::perft;

fn case<G: BulkCount>(c: &mut Criterion, name: &str, pos: G, depth: u32, bulk: bool) {
    let leaves = perft(&pos, depth, bulk);
    c.bench_function(
        &format!("perft/morris-{name}/d{depth}/{leaves}-leaves"),
        |b| b.iter(|| perft(black_box(&pos), depth, bulk)),
    );
}

fn benches(c: &mut Criterion) {
    let start = MorrisPosition::start();
    case(c, "start", start, 6, true);
    case(c, "start-make-leaves", start, 5, false);
    case(c, "start-removal-ply", RemovalPly::new(start), 6, true);
    case(
        c,
        "start-removal-ply-make-leaves",
        RemovalPly::new(start),
        5,
        false,
    );
    // Moving phase: 8 against 8, mills to open and close.
    let middle =
        MorrisPosition::from_fen("W:Wa1,a4,b6,d2,d3,e4,f4,g7:Ba7,b4,c5,d5,d6,e3,f2,g1:H0,0:R0")
            .unwrap();
    case(c, "middle", middle, 7, true);
    case(c, "middle-make-leaves", middle, 6, false);
    // Flying endgame: 3 against 5.
    let flying = MorrisPosition::from_fen("W:Wa1,d5,g4:Ba7,b4,d2,e3,f6:H0,0:R0").unwrap();
    case(c, "flying", flying, 5, true);

    // Evaluation: every position of 20 pseudo-random games, all phases.
    let positions = random_positions(20, 150, 0x2545_F491_4F6C_DD1D);
    c.bench_function(&format!("eval/morris/{}-positions", positions.len()), |b| {
        b.iter(|| {
            black_box(&positions)
                .iter()
                .map(|p| p.evaluate() as i64)
                .sum::<i64>()
        })
    });
}

criterion_group! {
    name = morris_benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(4));
    targets = benches
}
criterion_main!(morris_benches);
