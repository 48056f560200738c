//! Kalah in the registry: the description `kalah P S [capture empty|standard] [pie]`, the game
//! built with its knowledge (the evaluation, the move order, the exact solver with its endgame
//! database), its pictures.

use super::knowledge::{evaluate, greedy_move, order_key, SEED};
use super::solver::{self, cache, Database, Solver};
use super::{Capture, Kalah, KalahMove};
use crate::game::any::{AnyGame, GameSpec, GameType, Resources, SolveRequest};
use crate::game::playing::Playing;
use crate::game::render::{Opinion, Render, View, ViewCell, ViewMove, ViewPlayer};
use crate::game::solving::{checked, deadline, drive, Solved as SolvedLine};
use crate::game::{Game, Side};
use crate::search::{Candidate, Knowledge, Proof, RootKnowledge, Score, EVAL_LIMIT, WIN_BOUND};
use rand::RngCore;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

pub static GAME_TYPE: GameType = GameType {
    name: "kalah",
    aliases: &["bantumi"],
    size_words: 2,
    usage: "kalah P S [capture empty|standard] [pie] [fen COUNTS/SIDE[/PIE]]",
    about: "Kalah: P pits of S seeds a side, sow and capture, the most seeds in the store wins (kalah 6 4, \
            kalah 6 6; the Manchester referee's kalah 7 7 pie; Bantumi: kalah 6 3)",
    title: "Kalah",
    names: &[("kalah", "kalah 6 4"), ("bantumi", "kalah 6 3")],
    examples: &["kalah 6 4", "kalah 6 6", "kalah 7 7 pie", "kalah 6 3"],
    build,
    solve: Some(solve),
    prepare: Some(prepare),
    ..GameType::DEFAULTS
};

/// A description read: the board size, the rules and the position given by `fen`, if any.
struct Description {
    pits: usize,
    seeds: usize,
    capture: Capture,
    pie: bool,
    fen: Option<String>,
}

/// Reads `P S [capture empty|standard] [pie] [fen FEN]`.
fn read(words: &[&str]) -> Result<Description, String> {
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
    let (mut capture, mut pie, mut fen) = (Capture::Empty, false, None);
    let mut rest = rest.iter();
    while let Some(&word) = rest.next() {
        match word.to_ascii_lowercase().as_str() {
            "capture" => capture = Capture::parse(rest.next().ok_or("capture needs empty or standard")?)?,
            "pie" => pie = true,
            "fen" if fen.is_none() => {
                fen = Some(rest.next().ok_or("fen needs a position (COUNTS/SIDE[/PIE])")?.to_string())
            }
            _ => return Err(format!("unexpected '{word}' (options: capture empty|standard, pie, fen FEN)")),
        }
    }
    Ok(Description { pits, seeds, capture, pie, fen })
}

impl Description {
    /// The game described: its start, or the position of `fen`.
    fn game(&self) -> Result<Kalah, String> {
        let start = Kalah::with_rules(self.pits, self.seeds, self.capture, self.pie)?;
        match &self.fen {
            Some(text) => super::fen::parse(&start, text),
            None => Ok(start),
        }
    }
}

fn build(words: &[&str], resources: &Resources) -> Result<Box<dyn AnyGame>, String> {
    let d = read(words)?;
    let game = d.game()?;
    let mut canonical = vec![d.pits.to_string(), d.seeds.to_string()];
    if d.capture != Capture::Empty {
        canonical.extend(["capture".to_string(), d.capture.name().to_string()]);
    }
    if d.pie {
        canonical.push("pie".into());
    }
    if d.fen.is_some() {
        canonical.extend(["fen".to_string(), super::fen::write(&game)]);
    }
    let spec = GameSpec::new(&GAME_TYPE, canonical);
    Ok(Box::new(Playing::new(spec, game.clone(), KalahKnowledge::new(&game, resources))))
}

/// `boardbot solve --game kalah P S [capture empty|standard] [pie]`: one position a line, the
/// moves from the start as they are written in play (pit numbers 1..P from the mover's left,
/// `swap`; `.` for the start), optionally followed by the expected first player's final margin,
/// which is then checked. Prints that margin and the moves that keep it; with `analyze`, the
/// first player's final margin after each legal move.
fn solve(spec: &GameSpec, request: &SolveRequest) -> anyhow::Result<()> {
    let words: Vec<&str> = spec.words().iter().map(String::as_str).collect();
    let d = read(&words).map_err(anyhow::Error::msg)?;
    let start = d.game().map_err(anyhow::Error::msg)?;
    let (pits, capture) = (d.pits, d.capture);
    if request.method.is_some() || request.threads > 1 || request.weak {
        anyhow::bail!("the Kalah solver takes none of --dfpn, --pn, --threads, --weak");
    }
    // The table and the database sized by the seeds in the pits, each within --hash (see
    // `solver::table_bytes_for` and `solver::database_seeds_for`).
    let seeds = start.seeds_in_pits() as u32;
    let budget = request.hash_mib.max(1) << 20;
    let mut solver = Solver::with_table_bytes(solver::table_bytes_for(seeds).min(budget));
    let fit = Database::max_seeds_within(pits, budget).unwrap_or(0).min(seeds);
    let want = request.db_seeds.unwrap_or_else(|| solver::database_seeds_for(seeds)).min(fit);
    if want > 0 && Solver::supports(&start) {
        let most = if request.db_seeds.is_some() { want } else { fit };
        solver.set_database(Arc::new(cache::load_or_build(pits, capture, want, most)));
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
/// [`super::knowledge`], and the exact solver with its endgame database. Every Kalah game of an
/// engine shares one solver, whose table (a quarter of the games' memory budget) is made when
/// the engine starts ([`prepare`]). The database of a game's rules (at most another quarter;
/// the other half is the K-in-a-row solvers' table) is read from its cache file or built on a
/// thread of its own when the first game of those rules is made, so that no `init` waits for
/// it; the solver uses it from the moment it is there.
pub struct KalahKnowledge {
    solver: Option<Arc<Mutex<Solver>>>,
    db: Option<Pending>,
    /// Seeds in the pits above which the solver is not tried now: it failed in time with more
    /// (see [`KalahKnowledge::solve_exactly`]).
    try_below: Mutex<usize>,
}

/// The endgame databases of a game's rules as they are made, each set once it is there: a small
/// one first, within seconds, then the large one ([`cache::in_stages`]). Read without a lock (the
/// evaluation reads them at every leaf).
type Pending = Arc<[OnceLock<Arc<Database>>; 2]>;

/// The endgame database of the last rules asked for, kept across games (a game of other rules
/// replaces it, so that one database at a time takes memory): (pits, capture rule, seeds).
type DbCache = Mutex<Option<((usize, Capture, u32), Pending)>>;

/// How the databases are made (pits, capture rule, seeds wanted, most seeds, where each goes):
/// [`cache::in_stages`] (tests put a gate in its place).
type Builder = fn(usize, Capture, u32, u32, &dyn Fn(Arc<Database>));

/// The solver all the Kalah games of an engine share; None without a memory budget.
fn shared_solver(resources: &Resources) -> Option<Arc<Mutex<Solver>>> {
    resources.shared("kalah solver", |mib| Mutex::new(Solver::new((mib / 4).max(1))))
}

/// When the engine starts: the shared solver's table, so that no game pays for it.
fn prepare(resources: &Resources) {
    shared_solver(resources);
}

/// The solver is first tried with at most this many seeds more in the pits than its database
/// holds (a guess: docs/results/kalah.md measures the solves); then as its successes and
/// failures say.
const FIRST_TRY_ABOVE_DB: usize = 24;

impl KalahKnowledge {
    /// The knowledge of `game` with `resources` (no budget: no solver).
    pub fn new(game: &Kalah, resources: &Resources) -> KalahKnowledge {
        KalahKnowledge::with_builder(game, resources, cache::in_stages)
    }

    fn with_builder(game: &Kalah, resources: &Resources, build: Builder) -> KalahKnowledge {
        let none = KalahKnowledge { solver: None, db: None, try_below: Mutex::new(0) };
        if !Solver::supports(game) {
            return none;
        }
        let (Some(solver), Some(cache)) =
            (shared_solver(resources), resources.shared("kalah database", |_| DbCache::default()))
        else {
            return none;
        };
        let seeds = game.seeds_in_pits() as u32;
        let fit = Database::max_seeds_within(game.pits(), (resources.budget_mib() << 20) / 4).unwrap_or(0);
        let want = fit.min(seeds / 2).min(seeds.saturating_sub(8));
        let db = (want > 0).then(|| {
            let key = (game.pits(), game.capture(), want);
            let mut cache = cache.lock().unwrap_or_else(|e| e.into_inner());
            match cache.as_ref().filter(|(k, _)| *k == key) {
                Some((_, pending)) => pending.clone(),
                None => {
                    let pending: Pending = Arc::default();
                    let building = pending.clone();
                    let (pits, capture) = (game.pits(), game.capture());
                    std::thread::spawn(move || {
                        lower_priority();
                        build(pits, capture, want, fit, &|db| {
                            log::info!("kalah: endgame database of {} seeds ready", db.max_seeds());
                            if let Some(cell) = building.iter().find(|c| c.get().is_none()) {
                                let _ = cell.set(db);
                            }
                        });
                    });
                    *cache = Some((key, pending.clone()));
                    pending
                }
            }
        });
        let try_below = (want as usize + FIRST_TRY_ABOVE_DB).max(16);
        KalahKnowledge { solver: Some(solver), db, try_below: Mutex::new(try_below) }
    }

    /// The largest endgame database there so far.
    pub fn database(&self) -> Option<&Arc<Database>> {
        self.db.as_ref()?.iter().rev().find_map(|c| c.get())
    }

    /// The exact value of `g` by the endgame database, in evaluation units for the side to move
    /// (its store lead and the remaining margin), where the database has it.
    fn exact(&self, g: &Kalah) -> Option<Score> {
        let db = self.database()?;
        let n = g.seeds_in_pits() as u32;
        if n > db.max_seeds() || g.is_over() || g.pie_first_move() || g.can_swap() {
            return None;
        }
        let me = g.to_move();
        let remaining = db.value(solver::board::pack(g.row(me), g.row(me.other())), n);
        Some((SEED * (g.store_lead(me) + remaining)).clamp(-EVAL_LIMIT, EVAL_LIMIT))
    }

    /// Waits until the endgame database of `seeds` or more (if one is made) is there; for tests
    /// and measurements.
    pub fn wait_for_database(&self, seeds: u32) -> bool {
        if self.db.is_none() {
            return false;
        }
        while self.database().is_none_or(|db| db.max_seeds() < seeds) {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        true
    }
}

/// The database builder's thread gives way to the search's (Linux: nice 10 for this thread).
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // Reason for `unsafe`: two plain system calls on the calling thread, no memory involved.
    // SAFETY: gettid and setpriority take and return plain integers.
    unsafe {
        let tid = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, 10);
    }
}

impl Knowledge<Kalah> for KalahKnowledge {
    /// The endgame database's exact value where it has the position (the seeds in the pits
    /// allow), else the evaluation of [`super::knowledge`].
    fn evaluate(&self, g: &Kalah) -> Score {
        self.exact(g).unwrap_or_else(|| evaluate(g).clamp(-EVAL_LIMIT, EVAL_LIMIT))
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
}

impl RootKnowledge<Kalah> for KalahKnowledge {
    /// The solver's verdict: a won position's best move (the largest margin) is played at once;
    /// in a drawn or lost one, every move that keeps the value. The margin is not a number of
    /// plies: wins and losses are scored just past [`WIN_BOUND`], by the margin.
    fn solve_exactly(&self, g: &Kalah, deadline: Instant, stop: Option<&AtomicBool>) -> Option<Proof<KalahMove>> {
        let seeds = g.seeds_in_pits();
        let mut try_below = self.try_below.lock().unwrap_or_else(|e| e.into_inner());
        if seeds > *try_below {
            return None;
        }
        let mut solver = self.solver.as_ref()?.try_lock().ok()?;
        if let Some(db) = self.database() {
            solver.set_database(db.clone());
        }
        let begin = Instant::now();
        let Some(solved) = solver.solve(g, Some(deadline), stop) else {
            // Not in time: the next try waits until a few seeds have left the pits.
            *try_below = seeds.saturating_sub(3);
            log::info!("kalah solver: no value in time with {seeds} seeds in the pits; next try at {}", *try_below);
            return None;
        };
        // Fast: larger positions are tried too.
        if begin.elapsed() * 8 < deadline.saturating_duration_since(begin) {
            *try_below = (*try_below).max(seeds + 4);
        }
        let me = g.to_move();
        let margin = g.store_lead(me) + solved.value;
        log::info!(
            "kalah solver: {} by {} seeds, {} nodes, {} ms",
            if margin >= 0 { "wins" } else { "loses" },
            margin.abs(),
            solved.nodes,
            begin.elapsed().as_millis()
        );
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

impl Kalah {
    /// The view's cell of a board slot (see the module's board layout and [`Render::view`]).
    fn view_cell(&self, slot: usize) -> usize {
        let p = self.pits();
        match slot {
            s if s < p => p + 3 + s,
            s if s == p => 2 * p + 3,
            s if s <= 2 * p => 2 * p + 1 - s,
            _ => 0,
        }
    }

    /// The slots the last move's sowing dropped a seed in (a slot once a lap), the pit it
    /// emptied, and what it did; None at the start or after a swap.
    fn last_sowing(&self) -> Option<(Vec<usize>, usize, super::Effect, Side)> {
        let last = self.history.last()?;
        let KalahMove::Pit(i) = last.mv else { return None };
        let mut before = self.clone();
        before.undo();
        let (p, mover) = (self.pits(), last.side);
        let from = before.pit_index(mover, i as usize);
        let skip = before.store_index(mover.other());
        let (mut at, mut seeds, mut sown) = (from, before.board[from], Vec::new());
        while seeds > 0 {
            at = (at + 1) % (2 * p + 2);
            if at != skip {
                sown.push(at);
                seeds -= 1;
            }
        }
        let effect = before.effect(i as usize);
        Some((sown, from, effect, mover))
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

    /// A mancala board, two rows of P + 2 cells: the second player's row on top (from its pit P
    /// to its pit 1) with its store on the left; the first player's row below with its store on
    /// the right (the first player at the bottom: a page turns the board for the second). Each
    /// pit holds its count of seeds and its number; a pit of the side to move is clicked to
    /// sow it. The last move: the pit it emptied (`from`, marked), the pits and store it sowed
    /// (`sown`), the last seed's pit (`last`), the pits a capture emptied (`jumped`).
    fn view(&self) -> View {
        let p = self.pits();
        let me = self.to_move();
        let over = self.outcome().is_some();
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        let names = self.side_names();
        let key = |side: Side, i: usize| {
            let mv = KalahMove::Pit(i as u8);
            (side == me && !over && legal.contains(&mv)).then(|| self.format_move(mv))
        };
        let pit = |side: Side, i: usize| {
            let mut c = ViewCell::new(self.pit(side, i).to_string(), key(side, i));
            c.label = Some((i + 1).to_string());
            c
        };
        let store = |side: Side| {
            let mut c = ViewCell::new(self.store(side).to_string(), None);
            c.label = Some(names[side.index()].to_string());
            c.marks.push("store");
            c
        };
        let mut cells = vec![store(Side::Second)];
        cells.extend((0..p).rev().map(|i| pit(Side::Second, i)));
        cells.push(ViewCell::new("", None));
        cells.push(ViewCell::new("", None));
        cells.extend((0..p).map(|i| pit(Side::First, i)));
        cells.push(store(Side::First));
        let mut notes = Vec::new();
        if let Some((sown, from, effect, mover)) = self.last_sowing() {
            let who = names[mover.index()];
            for &slot in &sown {
                let cell = &mut cells[self.view_cell(slot)];
                if !cell.marks.contains(&"sown") {
                    cell.marks.push("sown");
                }
            }
            let from_cell = &mut cells[self.view_cell(from)];
            from_cell.marked = true;
            from_cell.marks.push("from");
            let last = *sown.last().expect("a pit sown holds a seed");
            cells[self.view_cell(last)].marks.push("last");
            if effect.captured > 0 {
                let facing = 2 * p - last;
                for slot in [last, facing] {
                    cells[self.view_cell(slot)].marks.push("jumped");
                }
                notes.push(format!("Capture: {who} took {} seeds.", effect.captured));
            }
            if effect.extra_turn && !effect.ends_game && !over && me == mover {
                notes.push(format!("Extra turn: {who} moves again."));
            }
        } else if self.history().last() == Some(KalahMove::Swap) {
            notes.push(format!("Swap: {} took over the first move's position.", names[Side::Second.index()]));
        }
        // A pit is its cell; the swap has none (the page gives it a button).
        let moves = legal.iter().map(|&mv| ViewMove {
            text: self.format_move(mv),
            keys: match mv {
                KalahMove::Pit(_) => vec![self.format_move(mv)],
                KalahMove::Swap => vec![],
            },
            human: String::new(),
        });
        let mut players = ViewPlayer::named(names);
        for side in [Side::First, Side::Second] {
            let seeds = self.store(side);
            players[side.index()].note =
                Some(format!("{seeds} seed{} in the store", if seeds == 1 { "" } else { "s" }));
        }
        View {
            rows: 2,
            cols: p + 2,
            cells,
            moves: moves.collect(),
            style: "mancala",
            col_labels: Vec::new(),
            row_labels: Vec::new(),
            bottom: Some("first"),
            players,
            notes,
        }
    }

    /// The board as [`Render::board_text`] draws it, `bottom`'s row nearest (its pit 1 on the
    /// left, its store on the right), each row named, the last move's pit in brackets.
    fn board_picture(&self, _colour: bool, bottom: Side) -> String {
        let p = self.pits();
        let top = bottom.other();
        let names = self.side_names();
        let last = self.last_pit();
        let cell = |side: Side, i: usize| {
            let seeds = self.pit(side, i);
            if last == Some((side, i)) {
                format!("[{seeds:>2}]")
            } else {
                format!(" {seeds:>2} ")
            }
        };
        let top_numbers: String = (1..=p).rev().map(|i| format!(" {i:>2} ")).collect();
        let top_row: String = (0..p).rev().map(|i| cell(top, i)).collect();
        let bottom_row: String = (0..p).map(|i| cell(bottom, i)).collect();
        let numbers: String = (1..=p).map(|i| format!(" {i:>2} ")).collect();
        let margin = " ".repeat(7);
        let mut s = String::new();
        s.push_str(&format!("{margin}{top_numbers}\n"));
        s.push_str(&format!("{margin}{top_row}  {}\n", names[top.index()]));
        s.push_str(&format!("{:>5}  {}  {}\n", self.store(top), " ".repeat(4 * p), self.store(bottom)));
        s.push_str(&format!("{margin}{bottom_row}  {}\n", names[bottom.index()]));
        s.push_str(&format!("{margin}{numbers}\n"));
        s.push_str(&format!(
            "stores: {} {} (left), {} {} (right)\n",
            names[top.index()],
            self.store(top),
            names[bottom.index()],
            self.store(bottom)
        ));
        s.lines().map(str::trim_end).collect::<Vec<_>>().join("\n") + "\n"
    }

    fn notation_help(&self) -> String {
        let swap = if self.pie() { ", or swap (the pie rule: take over the first move's position)" } else { "" };
        format!("a pit number from 1 to {}, counted from your left as you face your row{swap}", self.pits())
    }

    fn parse_human(&self, text: &str) -> Result<KalahMove, String> {
        self.parse_move(text).map_err(|_| {
            let swap = if self.pie() { " or swap" } else { "" };
            format!("'{}' is not a pit: type a pit number from 1 to {}{swap}", text.trim(), self.pits())
        })
    }

    fn side_names(&self) -> [&'static str; 2] {
        ["South", "North"]
    }

    /// The solver's scores are margins ([`KalahKnowledge::solve_exactly`]): "wins by 10 seeds".
    fn score_words(&self, score: Score, proved: bool) -> String {
        let seeds = |m: Score| format!("{m} seed{}", if m == 1 { "" } else { "s" });
        match score {
            s if (WIN_BOUND + 1..=WIN_BOUND + 200).contains(&s) => format!("wins by {}", seeds(s - WIN_BOUND)),
            s if (-(WIN_BOUND + 200)..=-(WIN_BOUND + 1)).contains(&s) => format!("loses by {}", seeds(-s - WIN_BOUND)),
            s => crate::game::render::score_words(s, proved),
        }
    }

    /// Proofs by the solver are margins in seeds; a win or loss by the distance to the end (a
    /// search's) has no margin, and its distance counts extra turns: it is said without either.
    fn opinion(&self, score: Score, proved: bool) -> Opinion {
        match score {
            s if (WIN_BOUND + 1..=WIN_BOUND + 200).contains(&s) => {
                Opinion::Win { moves: None, margin: Some((s - WIN_BOUND) as u32) }
            }
            s if (-(WIN_BOUND + 200)..=-(WIN_BOUND + 1)).contains(&s) => {
                Opinion::Loss { moves: None, margin: Some((-s - WIN_BOUND) as u32) }
            }
            s if s >= WIN_BOUND => Opinion::Win { moves: None, margin: None },
            s if s <= -WIN_BOUND => Opinion::Loss { moves: None, margin: None },
            s => Opinion::of_score(s, proved, SEED),
        }
    }

    fn scores_margins(&self) -> bool {
        true
    }

    fn margin(&self, side: Side) -> Option<i32> {
        self.is_over().then(|| self.store_lead(side))
    }

    fn evaluations(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("standard", "the engine's: the stores, the seeds on each side, the moves left"),
            ("stores", "the stores' difference only"),
        ]
    }

    fn evaluate_as(&self, name: &str) -> Option<Score> {
        (name == "stores").then(|| self.store_lead(self.to_move()) * SEED)
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

    fn human_end_reason(&self) -> Option<String> {
        let names = self.side_names();
        let (first, second) = (self.store(Side::First), self.store(Side::Second));
        let words = match first.cmp(&second) {
            std::cmp::Ordering::Greater => format!("{} has more seeds", names[0]),
            std::cmp::Ordering::Less => format!("{} has more seeds", names[1]),
            std::cmp::Ordering::Equal => "the stores are equal".to_string(),
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

    /// Issue 39, item 6: making a game never waits for its endgame database. The build is held
    /// at a gate: the knowledge is made, and solves, before the database is there; it uses the
    /// database once the gate opens.
    #[test]
    fn a_game_is_made_and_played_before_its_database_is_there() {
        use std::sync::Condvar;
        static GATE: (Mutex<bool>, Condvar) = (Mutex::new(false), Condvar::new());
        fn gated(pits: usize, capture: Capture, want: u32, _most: u32, publish: &dyn Fn(Arc<Database>)) {
            let mut open = GATE.0.lock().unwrap();
            while !*open {
                open = GATE.1.wait(open).unwrap();
            }
            publish(Arc::new(Database::build(pits, capture, want)));
        }
        let game = Kalah::new(6, 3).unwrap();
        let resources = Resources::new(64);
        let know = KalahKnowledge::with_builder(&game, &resources, gated);
        assert!(know.db.is_some() && know.database().is_none(), "the build is held at the gate");
        let far = Instant::now() + std::time::Duration::from_secs(60);
        let proof = know.solve_exactly(&game, far, None).expect("solved without the database");
        *GATE.0.lock().unwrap() = true;
        GATE.1.notify_all();
        assert!(know.wait_for_database(1));
        // Another game of the same rules shares the database; the solves agree.
        let other = KalahKnowledge::with_builder(&game, &resources, gated);
        assert!(other.database().is_some_and(|db| Arc::ptr_eq(db, know.database().unwrap())));
        // The evaluation is the database's exact value where it has the position.
        let late =
            Kalah::from_rows(Capture::Empty, &[1, 0, 2, 0, 0, 1], 5, &[0, 3, 0, 0, 1, 0], 4, Side::First).unwrap();
        let remaining = crate::game::kalah::reference::Reference::new().remaining(&late);
        assert_eq!(know.evaluate(&late), SEED * (1 + remaining));
        assert_eq!(other.evaluate(&game), evaluate(&game), "the start is beyond the database");
        assert_eq!(other.solve_exactly(&game, far, None), Some(proof));
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

    #[test]
    fn a_result_the_search_proves_is_said_as_a_margin() {
        use crate::game::players::{Algorithm, Player, Request, MAX_LEVEL};
        use crate::search::{Limits, Searcher};
        use rand::SeedableRng;
        // Near the end: with no clock the root solver is not asked, and the search proves the
        // result by the distance to the end; the margin is asked of the solver afterwards.
        let k =
            Kalah::from_rows(Capture::Empty, &[0, 0, 0, 2, 0, 1], 15, &[1, 0, 2, 0, 0, 0], 15, Side::First).unwrap();
        let resources = Resources::new(16);
        let mut game =
            Playing::new(GameSpec::parse("kalah 6 3").unwrap(), k.clone(), KalahKnowledge::new(&k, &resources));
        let request = Request {
            player: Player::Search,
            level: MAX_LEVEL,
            max_depth: 40,
            threads: 1,
            limits: Limits::depth(40),
            algorithm: Algorithm::Full,
            evaluation: None,
        };
        let turn = game.think(&mut Searcher::new(4), &mut rand::rngs::SmallRng::seed_from_u64(0), &request);
        let thought = turn.thought.expect("a search");
        assert!(thought.proved && thought.depth > 0, "{thought:?}");
        let margin = Solver::new(4).solve(&k, None, None).unwrap().first_margin;
        let expected = match margin {
            0 => Opinion::Draw,
            m if m > 0 => Opinion::Win { moves: None, margin: Some(m as u32) },
            m => Opinion::Loss { moves: None, margin: Some(-m as u32) },
        };
        assert_eq!(thought.opinion, Some(expected), "{thought:?}");
    }

    #[test]
    fn the_view_shows_the_last_sowing_and_what_it_did() {
        let mut g = Kalah::new(6, 4).unwrap();
        // Pit 3 of 4 seeds: 4, 5, 6 and the store; an extra turn.
        g.play(KalahMove::Pit(2));
        let v = g.view();
        let sown: Vec<usize> = (0..16).filter(|&i| v.cells[i].marks.contains(&"sown")).collect();
        assert_eq!(sown, [12, 13, 14, 15]);
        assert!(v.cells[15].marks.contains(&"last") && v.cells[15].marks.contains(&"store"));
        assert_eq!(v.notes, ["Extra turn: South moves again."]);
        assert_eq!(v.bottom, Some("first"));
        assert_eq!(v.cells[9].label.as_deref(), Some("1"));
        assert_eq!(v.players[0].note.as_deref(), Some("1 seed in the store"));
        // North's view of the board: its row nearest.
        let text = g.board_picture(false, Side::Second);
        assert!(text.contains("  4   4   4   4   4   4   North\n"), "{text}");
        assert!(text.ends_with("stores: South 1 (left), North 0 (right)\n"), "{text}");
    }
}
