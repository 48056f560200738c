//! Exact odds of the best possible play against the courses' L1 player on small m,n,k and
//! Connect-X boards.
//!
//! L1 takes an immediate win if it has one; otherwise it picks uniformly among the moves that do
//! not hand its opponent an immediate win (among all moves if there is none). Against that model
//! an expectimax over the whole game tree gives the best policy's exact chances. This tells which
//! results of a match against L1 are the engine's fault and which no player could avoid.
//!
//! usage: cargo run --release --example l1_odds -- [mnk|cx] M N K

use ahash::AHashMap;
use boardbot::game::connectx::{ConnectX, CxKnowledge};
use boardbot::game::mnk::{Mnk, MnkKnowledge};
use boardbot::game::{Outcome, Side};
use boardbot::search::{safe_moves, Game, Knowledge};

/// Chances of (win, loss) for the engine.
type Odds = (f64, f64);

struct Solver {
    engine: Side,
    /// false: maximise the chance of winning; true: first minimise the chance of losing.
    safety_first: bool,
    memo: AHashMap<u64, Odds>,
}

impl Solver {
    fn better(&self, a: Odds, b: Odds) -> bool {
        const EPS: f64 = 1e-12;
        if self.safety_first && (a.1 - b.1).abs() > EPS {
            return a.1 < b.1;
        }
        a.0 > b.0 + EPS || ((a.0 - b.0).abs() <= EPS && a.1 < b.1 - EPS)
    }

    fn odds<G: Game, K: Knowledge<G>>(&mut self, g: &mut G, k: &K) -> Odds {
        match g.outcome() {
            Some(Outcome::Win(s)) => return if s == self.engine { (1.0, 0.0) } else { (0.0, 1.0) },
            Some(Outcome::Draw) => return (0.0, 0.0),
            None => {}
        }
        if let Some(&o) = self.memo.get(&g.hash()) {
            return o;
        }
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        let result = if g.to_move() == self.engine {
            let mut best: Option<Odds> = None;
            for &mv in &moves {
                g.play(mv);
                let o = self.odds(g, k);
                g.undo();
                if best.is_none_or(|b| self.better(o, b)) {
                    best = Some(o);
                }
            }
            best.expect("a game in progress has a move")
        } else if k.winning_move(g).is_some() {
            (0.0, 1.0)
        } else {
            let safe = safe_moves(k, g, &moves);
            let pool = if safe.is_empty() { &moves } else { &safe };
            let (mut w, mut l) = (0.0, 0.0);
            for &mv in pool {
                g.play(mv);
                let o = self.odds(g, k);
                g.undo();
                w += o.0;
                l += o.1;
            }
            (w / pool.len() as f64, l / pool.len() as f64)
        };
        self.memo.insert(g.hash(), result);
        result
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let kind = if args.first().is_some_and(|a| a == "mnk" || a == "cx") { args.remove(0) } else { "mnk".into() };
    let nums: Vec<usize> = args.iter().map(|a| a.parse().expect("M N K are numbers")).collect();
    let [m, n, k] = nums[..] else { panic!("usage: l1_odds [mnk|cx] M N K") };
    println!("{kind} {m}x{n}x{k} against L1: exact chances of the best policy");
    for engine in [Side::First, Side::Second] {
        for safety_first in [false, true] {
            let mut s = Solver { engine, safety_first, memo: AHashMap::new() };
            let (w, l) = if kind == "cx" {
                s.odds(&mut ConnectX::new(m, n, k).expect("a valid board"), &CxKnowledge::new())
            } else {
                s.odds(&mut Mnk::new(m, n, k, &[]).expect("a valid board"), &MnkKnowledge::new())
            };
            println!(
                "engine {:<6} policy {:<14} win {:.6} draw {:.6} loss {:.6} ({} positions)",
                if engine == Side::First { "first" } else { "second" },
                if safety_first { "fewest-losses" } else { "most-wins" },
                w,
                1.0 - w - l,
                l,
                s.memo.len()
            );
        }
    }
}
