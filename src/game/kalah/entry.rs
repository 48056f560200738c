//! Kalah in the registry: the description `kalah P S [capture empty|standard] [pie]`, the game
//! built with its knowledge (the evaluation, the move order, the exact solver with its endgame
//! database), its pictures.

use super::knowledge::{evaluate, greedy_move, order_key};
use super::solver::{Database, Solver};
use super::{Capture, Kalah, KalahMove};
use crate::game::any::{AnyGame, Playing, Render, View, ViewCell, ViewMove};
use crate::game::registry::{GameSpec, GameType, Resources, SolveRequest};
use crate::game::solving::{checked, deadline, drive, Solved as SolvedLine};
use crate::game::{Game, Side};
use crate::search::{Candidate, Knowledge, Proof, Score, EVAL_LIMIT, WIN_BOUND};
use rand::RngCore;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

pub static GAME_TYPE: GameType = GameType {
    name: "kalah",
    aliases: &["bantumi"],
    size_words: 2,
    usage: "kalah P S [capture empty|standard] [pie]",
    about: "Kalah: P pits of S seeds a side, sow and capture, the most seeds in the store wins (Bantumi: kalah 6 3)",
    title: "Kalah",
    points: [3, 3, 1],
    build,
    solve: Some(solve),
    book: None,
    prepare: None,
    perft: None,
    record: None,
};

/// Reads `P S [capture empty|standard] [pie]`.
fn read(words: &[&str]) -> Result<(usize, usize, Capture, bool), String> {
    let number = |s: &str, what: &str| {
        s.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| s.parse::<usize>().ok())
            .flatten()
            .filter(|&v| v >= 1)
            .ok_or_else(|| format!("{what} must be a whole number >= 1, got '{s}'"))
    };
    let [p, s, rest @ ..] = words else { return Err("expected P S (pits a side, seeds a pit)".into()) };
    let (pits, seeds) = (number(p, "P")?, number(s, "S")?);
    let (mut capture, mut pie) = (Capture::Empty, false);
    let mut rest = rest.iter();
    while let Some(&word) = rest.next() {
        match word.to_ascii_lowercase().as_str() {
            "capture" => capture = Capture::parse(rest.next().ok_or("capture needs empty or standard")?)?,
            "pie" => pie = true,
            _ => return Err(format!("unexpected '{word}' (options: capture empty|standard, pie)")),
        }
    }
    Ok((pits, seeds, capture, pie))
}

fn build(words: &[&str], resources: &Resources) -> Result<Box<dyn AnyGame>, String> {
    let (pits, seeds, capture, pie) = read(words)?;
    let game = Kalah::with_rules(pits, seeds, capture, pie)?;
    let mut canonical = vec![pits.to_string(), seeds.to_string()];
    if capture != Capture::Empty {
        canonical.extend(["capture".to_string(), capture.name().to_string()]);
    }
    if pie {
        canonical.push("pie".into());
    }
    let spec = GameSpec::new(&GAME_TYPE, canonical);
    Ok(Box::new(Playing::new(spec, game.clone(), KalahKnowledge::new(&game, resources))))
}

/// The endgame database takes at most this many bytes: its build is paid when a game starts
/// (about 1.3 s at 8 MiB; a database 16 times as large took 33 s), once per process for each
/// board width and capture rule.
const DB_MAX_BYTES: usize = 8 << 20;

/// The last endgame database built, kept across games (a new game of other rules replaces it).
type DbCache = Mutex<Option<Arc<Database>>>;

/// `boardbot solve --game kalah P S [capture empty|standard] [pie]`: one position a line, the
/// moves from the start as they are written in play (pit numbers 1..P from the mover's left,
/// `swap`; `.` for the start), optionally followed by the expected first player's final margin,
/// which is then checked. Prints that margin and the moves that keep it; with `analyze`, the
/// first player's final margin after each legal move.
fn solve(spec: &GameSpec, request: &SolveRequest) -> anyhow::Result<()> {
    let words: Vec<&str> = spec.words().iter().map(String::as_str).collect();
    let (pits, seeds, capture, pie) = read(&words).map_err(anyhow::Error::msg)?;
    let start = Kalah::with_rules(pits, seeds, capture, pie).map_err(anyhow::Error::msg)?;
    if request.method.is_some() || request.threads > 1 || request.weak {
        anyhow::bail!("the Kalah solver takes none of --dfpn, --pn, --threads, --weak");
    }
    let mut solver = Solver::new(request.hash_mib.max(1));
    // An endgame database of at most 16 MiB (14 seeds on 6 pits): larger ones take longer to
    // build than they save on these boards (see docs/results/kalah.md).
    if let Some(n) = Database::max_seeds_within(pits, (request.hash_mib << 20).min(16 << 20)) {
        solver.set_database(Arc::new(Database::build(pits, capture, n)));
    }
    drive(request, |line| {
        let mut words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            return Ok(None);
        }
        let expected = words.last().and_then(|w| w.strip_prefix('=')).map(|w| w.parse::<i32>()).transpose()?;
        if expected.is_some() {
            words.pop();
        }
        let mut k = start.clone();
        for (i, w) in words.iter().filter(|&&w| w != ".").enumerate() {
            let mv = k.parse_move(w).map_err(|e| anyhow::anyhow!("move {}: {e}", i + 1))?;
            if !k.is_legal(mv) {
                anyhow::bail!("move {} '{w}' is not legal there", i + 1);
            }
            k.play(mv);
        }
        if request.fresh {
            solver.clear();
        }
        let begin = Instant::now();
        let shown = words.join(" ");
        let to_first = |value: i32| k.store_difference() + if k.to_move() == Side::First { value } else { -value };
        if request.analyze {
            let Some(a) = solver.analyze(&k, deadline(request), None) else {
                return Ok(Some(SolvedLine {
                    text: format!("{shown} unknown"),
                    nodes: 0,
                    time: begin.elapsed(),
                    wrong: false,
                }));
            };
            let values: Vec<String> =
                a.moves.iter().map(|&(mv, v)| format!("{}:{:+}", k.format_move(mv), to_first(v))).collect();
            return Ok(Some(SolvedLine {
                text: format!("{shown} {}", values.join(" ")),
                nodes: a.nodes,
                time: begin.elapsed(),
                wrong: false,
            }));
        }
        let Some(solved) = solver.solve(&k, deadline(request), None) else {
            return Ok(Some(SolvedLine {
                text: format!("{shown} unknown"),
                nodes: 0,
                time: begin.elapsed(),
                wrong: false,
            }));
        };
        let (text, wrong) = checked(to_first(solved.value), expected);
        let best: Vec<String> = solved.best.iter().map(|&mv| k.format_move(mv)).collect();
        Ok(Some(SolvedLine {
            text: format!("{shown} {text} best {}", if best.is_empty() { "-".into() } else { best.join(",") }),
            nodes: solved.nodes,
            time: begin.elapsed(),
            wrong,
        }))
    })
}

/// What the engine knows of Kalah beyond the rules: the evaluation and move order of
/// [`super::knowledge`], and the exact solver, kept from move to move, with its transposition
/// table (a quarter of the games' budget) and its endgame database (another quarter, built when
/// the game is made, not inside a move's time; the other half is the K-in-a-row solvers' table).
pub struct KalahKnowledge {
    solver: Option<Mutex<Solver>>,
}

impl KalahKnowledge {
    /// The knowledge of `game` with `resources` (no budget: no solver).
    pub fn new(game: &Kalah, resources: &Resources) -> KalahKnowledge {
        let budget_mib = resources.budget_mib();
        let Some(cache) = resources.shared("kalah database", |_| DbCache::default()) else {
            return KalahKnowledge { solver: None };
        };
        if !Solver::supports(game) {
            return KalahKnowledge { solver: None };
        }
        let mut solver = Solver::new((budget_mib / 4).max(1));
        let db_bytes = ((budget_mib << 20) / 4).min(DB_MAX_BYTES);
        if let Some(n) = Database::max_seeds_within(game.pits(), db_bytes) {
            let n = n.min(game.seeds_in_pits() as u32);
            let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
            let fits =
                |db: &Arc<Database>| db.pits() == game.pits() && db.capture() == game.capture() && db.max_seeds() >= n;
            let db = match cache.as_ref().filter(|db| fits(db)) {
                Some(db) => db.clone(),
                None => {
                    *cache = None;
                    let db = Arc::new(Database::build(game.pits(), game.capture(), n));
                    *cache = Some(db.clone());
                    db
                }
            };
            solver.set_database(db);
        }
        KalahKnowledge { solver: Some(Mutex::new(solver)) }
    }
}

impl Knowledge<Kalah> for KalahKnowledge {
    fn evaluate(&self, g: &Kalah) -> Score {
        evaluate(g).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    fn winning_move(&self, _g: &Kalah) -> Option<KalahMove> {
        None
    }

    fn quiet(&self, _g: &Kalah) -> bool {
        true
    }

    fn candidates(&self, g: &Kalah, out: &mut Vec<Candidate<KalahMove>>) -> bool {
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        out.extend(moves.into_iter().map(|mv| Candidate { mv, score: order_key(g, mv) as i64 }));
        true
    }

    /// The solver's verdict: a won position's best move (the largest margin) is played at once;
    /// in a drawn or lost one, every move that keeps the value. The margin is not a number of
    /// plies: wins and losses are scored just past [`WIN_BOUND`], by the margin.
    fn solve_exactly(&self, g: &Kalah, deadline: Instant, stop: Option<&AtomicBool>) -> Option<Proof<KalahMove>> {
        let mut solver = self.solver.as_ref()?.try_lock().ok()?;
        let solved = solver.solve(g, Some(deadline), stop)?;
        let me = g.to_move();
        let margin = g.store_lead(me) + solved.value;
        let score = match margin {
            0 => 0,
            m if m > 0 => WIN_BOUND + m.min(200),
            m => -(WIN_BOUND + (-m).min(200)),
        };
        (!solved.best.is_empty()).then_some(Proof { score, moves: solved.best })
    }

    fn reference_move(&self, g: &mut Kalah, mut rng: &mut dyn RngCore) -> Option<KalahMove> {
        greedy_move(g, &mut rng)
    }
}

impl Render for Kalah {
    /// The second player's row on top (its pit 1 on the right, as it sits across the board),
    /// the stores at the ends, the first player's row below with its pit numbers.
    fn board_text(&self) -> String {
        let p = self.pits();
        let row = |side: Side, order: &mut dyn Iterator<Item = usize>| {
            order.map(|i| format!("{:>3}", self.pit(side, i))).collect::<String>()
        };
        let numbers: String = (1..=p).map(|i| format!("{i:>3}")).collect();
        let top_numbers: String = (1..=p).rev().map(|i| format!("{i:>3}")).collect();
        format!(
            "     {top_numbers}\n     {}\n{:>3}  {}  {:<3}\n     {}\n     {numbers}\n",
            row(Side::Second, &mut (0..p).rev()),
            self.store(Side::Second),
            " ".repeat(3 * p),
            self.store(Side::First),
            row(Side::First, &mut (0..p)),
        )
    }

    /// Two rows of P + 2 cells: the second player's row on top (from its pit P to its pit 1)
    /// with its store on the left; the first player's row below with its store on the right. A
    /// pit of the side to move is clicked to sow it.
    fn view(&self) -> View {
        let p = self.pits();
        let me = self.to_move();
        let over = self.outcome().is_some();
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        let key = |side: Side, i: usize| {
            let mv = KalahMove::Pit(i as u8);
            (side == me && !over && legal.contains(&mv)).then(|| self.format_move(mv))
        };
        let cell = |content: String, key: Option<String>| ViewCell { content, key, marked: false };
        let empty = || cell(String::new(), None);
        let mut cells = vec![cell(self.store(Side::Second).to_string(), None)];
        cells.extend((0..p).rev().map(|i| cell(self.pit(Side::Second, i).to_string(), key(Side::Second, i))));
        cells.push(empty());
        cells.push(empty());
        cells.extend((0..p).map(|i| cell(self.pit(Side::First, i).to_string(), key(Side::First, i))));
        cells.push(cell(self.store(Side::First).to_string(), None));
        match self.last_pit() {
            Some((Side::Second, i)) => cells[p - i].marked = true,
            Some((Side::First, i)) => cells[p + 3 + i].marked = true,
            None => {}
        }
        // A pit is its cell; the swap has none (the page gives it a button).
        let moves = legal.iter().map(|&mv| ViewMove {
            text: self.format_move(mv),
            keys: match mv {
                KalahMove::Pit(_) => vec![self.format_move(mv)],
                KalahMove::Swap => vec![],
            },
        });
        View { rows: 2, cols: p + 2, cells, moves: moves.collect() }
    }

    /// The solver's scores are margins ([`KalahKnowledge::solve_exactly`]): "wins by 10 seeds".
    fn score_words(&self, score: Score, proved: bool) -> String {
        let seeds = |m: Score| format!("{m} seed{}", if m == 1 { "" } else { "s" });
        match score {
            s if (WIN_BOUND + 1..=WIN_BOUND + 200).contains(&s) => format!("wins by {}", seeds(s - WIN_BOUND)),
            s if (-(WIN_BOUND + 200)..=-(WIN_BOUND + 1)).contains(&s) => format!("loses by {}", seeds(-s - WIN_BOUND)),
            s => crate::game::any::score_words(s, proved),
        }
    }

    fn end_reason(&self) -> Option<String> {
        let (first, second) = (self.store(Side::First), self.store(Side::Second));
        let words = match first.cmp(&second) {
            std::cmp::Ordering::Greater => "the first player has more seeds",
            std::cmp::Ordering::Less => "the second player has more seeds",
            std::cmp::Ordering::Equal => "the stores are equal",
        };
        self.is_over().then(|| format!("{words}: {first} to {second}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_are_read_and_written_back() {
        assert_eq!(GameSpec::parse("kalah 6 4").unwrap().to_string(), "kalah 6 4");
        assert_eq!(
            GameSpec::parse("kalah 6 3 capture standard pie").unwrap().to_string(),
            "kalah 6 3 capture standard pie"
        );
        assert_eq!(GameSpec::parse("bantumi 6 3 capture empty").unwrap().to_string(), "kalah 6 3");
        for bad in
            ["kalah 6", "kalah 0 4", "kalah +6 4", "kalah 6 4 capture", "kalah 6 4 capture all", "kalah 6 4 swap"]
        {
            assert!(GameSpec::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_solver_plays_the_first_move_of_bantumi_perfectly() {
        let game = Kalah::new(6, 3).unwrap();
        let know = KalahKnowledge::new(&game, &Resources::new(64));
        let far = Instant::now() + std::time::Duration::from_secs(60);
        let proof = know.solve_exactly(&game, far, None).expect("Bantumi is solved in time");
        assert!(proof.score >= WIN_BOUND, "Bantumi is a first-player win: {proof:?}");
        // Every move given keeps the win: after it the solver values the game the same.
        let mut after = game.clone();
        after.play(proof.moves[0]);
        let again = know.solve_exactly(&after, far, None).unwrap();
        let first_wins =
            if after.to_move() == Side::First { again.score >= WIN_BOUND } else { again.score <= -WIN_BOUND };
        assert!(first_wins, "{again:?}");
    }

    #[test]
    fn the_board_is_drawn_with_both_rows_and_stores() {
        let mut g = Kalah::new(6, 4).unwrap();
        g.play(KalahMove::Pit(2));
        let text = g.board_text();
        assert!(text.contains("  5  5  5"), "{text}");
        assert_eq!(text.lines().count(), 5, "{text}");
        let v = g.view();
        assert_eq!((v.rows, v.cols, v.cells.len()), (2, 8, 16));
        // After pit 3 of 4 seeds the last lands in the store: the first player moves again.
        assert_eq!(g.to_move(), Side::First);
        assert!(v.moves.iter().all(|m| m.keys == [m.text.clone()]));
        assert_eq!(v.cells[8 + 1 + 5].content, "5");
        assert_eq!(g.score_words(WIN_BOUND + 10, true), "wins by 10 seeds");
        assert_eq!(g.score_words(-WIN_BOUND - 1, true), "loses by 1 seed");
        assert_eq!(g.score_words(0, true), "draw");
        // The pit just emptied is marked, and only it.
        let marked: Vec<usize> = (0..16).filter(|&i| v.cells[i].marked).collect();
        assert_eq!(marked, [8 + 1 + 2]);
        assert_eq!(v.cells[8 + 1 + 2].content, "0");
        // The second player's pits run right to left along the top row.
        g.play(KalahMove::Pit(5));
        g.play(KalahMove::Pit(0));
        let v = g.view();
        let marked: Vec<usize> = (0..16).filter(|&i| v.cells[i].marked).collect();
        assert_eq!(marked, [6], "{}", g.board_text());
        // Under the pie rule the swap is a move no cell stands for.
        let mut pie = Kalah::with_rules(6, 3, Capture::Empty, true).unwrap();
        pie.play(KalahMove::Pit(0));
        let v = pie.view();
        assert!(v.moves.iter().any(|m| m.text == "swap" && m.keys.is_empty()), "{:?}", v.moves);
    }
}
