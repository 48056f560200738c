//! `boardbot suite`: a suite of won and defended positions of free-style gomoku (15x15, five or
//! more in a row wins; issue 60), and what boardbot does with them.
//!
//! The suite file (tests/data/gomoku-suite.txt, made by scripts/gomoku-suite.py) holds one
//! position a line, its fields separated by `|`; blank lines and `#` lines are comments:
//!
//! ```text
//! LABEL | CLASS | TO_MOVE | MOVES | ANSWERS | NOTE
//! win | vct | x | 7,7 7,8 8,8 ... | 9,9 5,5 | game 3 ply 21, rapfi +M9, vct proved
//! ```
//!
//! - LABEL: `win` (the side to move has a forced win; ANSWERS are winning first moves, every
//!   one proved, not necessarily all of them) or `defend` (the opponent would win if it were to
//!   move, the side to move does not lose; ANSWERS are every move that stops the opponent's win:
//!   each other move is refuted).
//! - CLASS: how the position's threat looks (`vcf`, `vct`, `deep` for a win; the opponent's
//!   threat for a defence), for the report by class; any word.
//! - TO_MOVE: `x` (the first player) or `o`; it must agree with the number of MOVES.
//! - MOVES: the game from the empty board, `ROW,COL` cells (0-based) separated by blanks.
//! - ANSWERS: `ROW,COL` cells, at least one, all empty.
//! - NOTE: free text (where the position comes from, how it was checked).
//!
//! `boardbot suite FILE --ms 100` searches each position as the engine plays (fresh table,
//! one thread) and counts it solved when the move played is among the ANSWERS, or, for a win,
//! when the search's score says the side to move wins (a mate score). `--nodes N` caps the
//! search by nodes instead (the same result on any machine: the tests use it).
//!
//! `boardbot suite --probe` reads positions (moves from the empty board, one position a line) on
//! stdin and prints what boardbot's provers say of each: the generator's cross-checks.

use crate::game::mnk::{Mnk, ThreatMemo};
use crate::game::players::{Player, Request};
use crate::game::registry::{GameSpec, Resources};
use crate::search::dfpn::{Dfpn, Verdict};
use crate::search::{Game, Limits, Searcher, Side, WIN_BOUND};
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The board of every position of the suite.
pub const SIZE: usize = 15;
const GAME: &str = "mnk 15 15 5";

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Label {
    Win,
    Defend,
}

/// One position of the suite file.
#[derive(Clone, Debug)]
pub struct Position {
    /// The line of the file (from 1).
    pub line: usize,
    pub label: Label,
    pub class: String,
    /// The moves from the empty board, as (row, col).
    pub moves: Vec<(usize, usize)>,
    pub answers: Vec<(usize, usize)>,
    pub note: String,
}

impl Position {
    /// The side to move: the first player after an even number of moves.
    pub fn to_move(&self) -> Side {
        Side::after_moves(self.moves.len())
    }
    /// The moves as the protocol's move text.
    pub fn move_text(&self) -> Vec<String> {
        self.moves.iter().map(|&(r, c)| format!("{r},{c}")).collect()
    }
}

fn parse_cell(text: &str) -> Result<(usize, usize)> {
    let (r, c) = text.split_once(',').ok_or_else(|| anyhow!("expected a cell ROW,COL, got '{text}'"))?;
    let (r, c) = match (r.parse::<usize>(), c.parse::<usize>()) {
        (Ok(r), Ok(c)) => (r, c),
        _ => bail!("expected a cell ROW,COL, got '{text}'"),
    };
    if r >= SIZE || c >= SIZE {
        bail!("cell {r},{c} is off the {SIZE}x{SIZE} board");
    }
    Ok((r, c))
}

fn parse_cells(text: &str) -> Result<Vec<(usize, usize)>> {
    text.split_whitespace().map(parse_cell).collect()
}

/// The position after `moves` on the suite's board, checked: every cell empty when played and
/// the game not over.
fn board(moves: &[(usize, usize)]) -> Result<Mnk> {
    let mut g = Mnk::new(SIZE, SIZE, 5, &[])?;
    for (i, &(r, c)) in moves.iter().enumerate() {
        let mv = (r * SIZE + c) as u32;
        if !g.is_legal(mv) {
            bail!("move {} ({r},{c}) is not legal there", i + 1);
        }
        g.play(mv);
    }
    if g.outcome().is_some() {
        bail!("the game is over");
    }
    Ok(g)
}

/// Parses a suite file's text: every line checked (fields, cells, side to move, answers on
/// empty cells, the game not over).
pub fn parse(text: &str) -> Result<Vec<Position>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let at = |e: &dyn std::fmt::Display| anyhow!("line {line}: {e}");
        let fields: Vec<&str> = t.split('|').map(str::trim).collect();
        if fields.len() != 6 {
            return Err(at(&format!("expected 6 fields separated by '|', got {}", fields.len())));
        }
        let label = match fields[0] {
            "win" => Label::Win,
            "defend" => Label::Defend,
            other => return Err(at(&format!("label must be win or defend, got '{other}'"))),
        };
        let class = fields[1];
        if class.is_empty() || class.contains(char::is_whitespace) {
            return Err(at(&format!("class must be one word, got '{class}'")));
        }
        let moves = parse_cells(fields[3]).map_err(|e| at(&e))?;
        let to_move = match fields[2] {
            "x" => Side::First,
            "o" => Side::Second,
            other => return Err(at(&format!("side to move must be x or o, got '{other}'"))),
        };
        if to_move != Side::after_moves(moves.len()) {
            return Err(at(&format!("side to move '{}' does not agree with {} moves", fields[2], moves.len())));
        }
        let answers = parse_cells(fields[4]).map_err(|e| at(&e))?;
        if answers.is_empty() {
            return Err(at(&"no answers"));
        }
        let g = board(&moves).map_err(|e| at(&e))?;
        for &(r, c) in &answers {
            if !g.is_legal((r * SIZE + c) as u32) {
                return Err(at(&format!("answer {r},{c} is not an empty cell")));
            }
        }
        out.push(Position { line, label, class: class.to_string(), moves, answers, note: fields[5].to_string() });
    }
    Ok(out)
}

#[derive(Args, Clone, Debug)]
pub struct SuiteArgs {
    /// The suite file (see tests/data/gomoku-suite.txt and src/suite.rs for its format).
    #[arg(required_unless_present = "probe")]
    file: Option<PathBuf>,
    /// Search time per position, in milliseconds (ignored with --nodes).
    #[arg(long, default_value_t = 100)]
    ms: u64,
    /// Caps each search by nodes instead of time (the result does not depend on the machine).
    #[arg(long)]
    nodes: Option<u64>,
    /// Transposition table size in MiB (a fresh table each position).
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Only the positions whose class or label contains this text.
    #[arg(long, default_value = "")]
    only: String,
    /// One line a position: its line number, label, class, the move played, the score, solved.
    #[arg(long)]
    verbose: bool,
    /// Reads positions (moves from the empty board, `ROW,COL` separated by blanks) on stdin and
    /// prints what the provers say of each (see `probe_line`), instead of a bench.
    #[arg(long)]
    probe: bool,
    /// With --probe: also lists the moves that a proof does not refute (a defence's candidates)
    /// and the near moves proved to win.
    #[arg(long)]
    moves: bool,
    /// With --probe: the node budget of each proof of the position (VCF, VCT, df-pn over the
    /// whole tree).
    #[arg(long, default_value_t = 100_000)]
    proof_nodes: u64,
    /// With --probe --moves: the node budget of each proof after one move.
    #[arg(long, default_value_t = 10_000)]
    move_nodes: u64,
}

/// `boardbot suite`.
pub fn run(args: SuiteArgs) -> Result<()> {
    if args.probe {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            let line = line?;
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            match probe_line(t, args.proof_nodes, args.moves.then_some(args.move_nodes)) {
                Ok(out) => println!("{out}"),
                Err(e) => println!("error {e}"),
            }
        }
        return Ok(());
    }
    let Some(path) = &args.file else { bail!("no suite file") };
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let positions = parse(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let positions: Vec<&Position> = positions
        .iter()
        .filter(|p| args.only.is_empty() || p.class.contains(&args.only) || label_word(p.label).contains(&args.only))
        .collect();
    let limit = match args.nodes {
        Some(n) => format!("{n} nodes"),
        None => format!("{} ms", args.ms),
    };
    println!("suite {} ({} positions), {limit} a position, hash {} MiB", path.display(), positions.len(), args.hash);
    let mut by_class: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let (mut solved, mut by_move, mut by_score) = (0, 0, 0);
    for p in &positions {
        let r = solve_one(p, args.nodes, args.ms, args.hash).map_err(|e| anyhow!("line {}: {e}", p.line))?;
        let key = format!("{} {}", label_word(p.label), p.class);
        let entry = by_class.entry(key).or_default();
        entry.1 += 1;
        if r.solved() {
            entry.0 += 1;
            solved += 1;
        }
        by_move += usize::from(r.in_set);
        by_score += usize::from(r.claims_win && !r.in_set);
        if args.verbose {
            println!(
                "line {:>4} {:<6} {:<6} played {:<6} score {:>8} depth {:>2} nodes {:>8} {}",
                p.line,
                label_word(p.label),
                p.class,
                r.played,
                crate::search::score_text(r.score),
                r.depth,
                r.nodes,
                if r.solved() { "solved" } else { "missed" }
            );
        }
    }
    for (class, (ok, n)) in &by_class {
        println!("{class:<14} solved {ok:>4} of {n:>4}");
    }
    println!(
        "solved {solved} of {} ({by_move} by a move of the answers, {by_score} more by a winning score), {limit} a position",
        positions.len()
    );
    Ok(())
}

fn label_word(l: Label) -> &'static str {
    match l {
        Label::Win => "win",
        Label::Defend => "defend",
    }
}

/// What the engine did with one position.
#[derive(Clone, Debug)]
pub struct Solved {
    pub played: String,
    pub in_set: bool,
    /// A win position whose search scored a win for the side to move.
    pub claims_win: bool,
    pub score: crate::search::Score,
    pub depth: u32,
    pub nodes: u64,
}

impl Solved {
    pub fn solved(&self) -> bool {
        self.in_set || self.claims_win
    }
}

/// Searches `p` as the engine plays (full strength, one thread, a fresh table of `hash_mb` MiB)
/// for `nodes` nodes if given, else `ms` milliseconds.
pub fn solve_one(p: &Position, nodes: Option<u64>, ms: u64, hash_mb: usize) -> Result<Solved> {
    let spec = GameSpec::parse(GAME)?;
    let mut game = spec.new_game(&Resources::none())?;
    game.set_moves(&p.move_text())?;
    let limits = match nodes {
        Some(n) => Limits { max_nodes: Some(n), ..Limits::infinite() },
        None => Limits { hard: Some(Duration::from_millis(ms)), ..Limits::infinite() },
    };
    let mut searcher = Searcher::new(hash_mb);
    let request = Request::full_strength(Limits { start: Instant::now(), ..limits });
    debug_assert!(matches!(request.player, Player::Search));
    let turn = game.think(&mut searcher, &mut SmallRng::seed_from_u64(0), &request);
    let played = turn.moves.first().ok_or_else(|| anyhow!("no move"))?;
    let cell = {
        let nums: Vec<usize> =
            played.split(|c: char| c == ',' || c.is_whitespace()).filter_map(|w| w.parse().ok()).collect();
        match nums[..] {
            [r, c] => (r, c),
            _ => bail!("unreadable move '{played}'"),
        }
    };
    let (score, depth, nodes) = turn.thought.as_ref().map_or((0, 0, 0), |t| (t.score, t.depth, t.nodes));
    // An immediate win (five) is played without a search: a win of its own.
    let wins_at_once = turn.thought.as_ref().is_some_and(|t| t.source == crate::game::players::Source::WinsAtOnce);
    Ok(Solved {
        played: format!("{},{}", cell.0, cell.1),
        in_set: p.answers.contains(&cell),
        claims_win: p.label == Label::Win && (score >= WIN_BOUND || wins_at_once),
        score,
        depth,
        nodes,
    })
}

fn cell_text(c: u32) -> String {
    format!("{},{}", c as usize / SIZE, c as usize % SIZE)
}

fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Proved => "proved",
        Verdict::Disproved => "disproved",
        Verdict::Unknown => "unknown",
    }
}

/// The provers' view of one position (moves from the empty board), one line of `key=value`
/// words, `me` the side to move and `opp` the other:
/// - `vcf=R,C/PLIES` or `vcf=none`: a VCF of the side to move (none: not found in the budget);
/// - `vct=VERDICT[:R,C/PLIES]`: its VCT by df-pn (proved, disproved or unknown);
/// - `ovcf=`, `ovct=`: the same for the opponent, as if it were to move (its threat);
/// - `value=1|0|-1|?`: the position's value for the side to move, by df-pn over the whole
///   tree (`?`: budget out);
/// - `kind=R,C:four|three|quiet ...` (with `moves`): for every empty cell near the stones,
///   whether a stone of the side to move there makes a four, a three (a window of five free of
///   enemy stones brought to three stones) or neither;
/// - `alive=R,C ...` (with `moves`, when the opponent has a proved VCT): every empty cell after
///   which the opponent has neither a VCF nor a VCT proved within `moves` nodes (the moves no
///   threat proof refutes);
/// - `wins=R,C ...` (with `moves`, when the side to move has a proved VCT or `value=1`): the
///   near cells where a stone of the side to move makes a four or a three and after which
///   df-pn over the whole tree proves, within `moves` nodes, that the opponent is lost.
pub fn probe_line(text: &str, proof_nodes: u64, moves: Option<u64>) -> Result<String> {
    let g = board(&parse_cells(text)?)?;
    let me = g.to_move();
    let opp = me.other();
    let far = Instant::now() + Duration::from_secs(3600);
    let memo = ThreatMemo::default();
    let mut out = vec![format!("tomove={}", if me == Side::First { "x" } else { "o" })];
    let vcf = |g: &Mnk, side: Side| match g.vcf(side, far, proof_nodes) {
        Some(w) => format!("{}/{}", cell_text(w.first), w.plies),
        None => "none".into(),
    };
    let vct = |g: &Mnk, side: Side| {
        let (v, w) = g.vct_dfpn(&ThreatMemo::default(), side, far, proof_nodes);
        match w {
            Some(w) => format!("{}:{}/{}", verdict_word(v), cell_text(w.first), w.plies),
            None => verdict_word(v).to_string(),
        }
    };
    out.push(format!("vcf={}", vcf(&g, me)));
    out.push(format!("vct={}", vct(&g, me)));
    out.push(format!("ovcf={}", vcf(&g, opp)));
    out.push(format!("ovct={}", vct(&g, opp)));
    let value = g.prove_value(&mut Dfpn::new(1 << 18, proof_nodes));
    out.push(format!("value={}", value.map_or("?".to_string(), |v| v.to_string())));
    if let Some(move_nodes) = moves {
        let lines = g.lines();
        let near = near_cells(&g);
        let kinds: Vec<String> = near
            .iter()
            .map(|&c| {
                let kind = if lines.fours_made(c as usize, me) > 0 {
                    "four"
                } else if lines.threes_made(c as usize, me) > 0 {
                    "three"
                } else {
                    "quiet"
                };
                format!("{}:{kind}", cell_text(c))
            })
            .collect();
        out.push(format!("kind={}", kinds.join(" ")));
        let threatened = out.iter().any(|w| w.starts_with("ovct=proved"));
        let mut alive = Vec::new();
        for c in (0..(SIZE * SIZE) as u32).filter(|_| threatened) {
            if !g.is_legal(c) {
                continue;
            }
            let mut after = g.clone();
            after.play(c);
            if after.outcome().is_some() {
                alive.push(c);
                continue;
            }
            if after.vcf(opp, far, move_nodes).is_some() {
                continue;
            }
            if after.vct_dfpn(&memo, opp, far, move_nodes).0 == Verdict::Proved {
                continue;
            }
            alive.push(c);
        }
        out.push(format!("alive={}", alive.iter().map(|&c| cell_text(c)).collect::<Vec<_>>().join(" ")));
        if value == Some(1) || out.iter().any(|w| w.starts_with("vct=proved")) {
            let mut wins = Vec::new();
            for &c in &near {
                let (c4, c3) = (lines.fours_made(c as usize, me), lines.threes_made(c as usize, me));
                if c4 == 0 && c3 == 0 {
                    continue;
                }
                let mut after = g.clone();
                after.play(c);
                let won = match after.outcome() {
                    Some(_) => true,
                    None => after.prove_value(&mut Dfpn::new(1 << 18, move_nodes)) == Some(-1),
                };
                if won {
                    wins.push(c);
                }
            }
            out.push(format!("wins={}", wins.iter().map(|&c| cell_text(c)).collect::<Vec<_>>().join(" ")));
        }
    }
    Ok(out.join(" "))
}

/// The empty cells within two cells (kings' moves) of a stone.
fn near_cells(g: &Mnk) -> Vec<u32> {
    let lines = g.lines();
    let mut out = Vec::new();
    for c in 0..SIZE * SIZE {
        if !lines.is_empty_cell(c) {
            continue;
        }
        let (r, col) = (c / SIZE, c % SIZE);
        let near = (r.saturating_sub(2)..=(r + 2).min(SIZE - 1))
            .any(|rr| (col.saturating_sub(2)..=(col + 2).min(SIZE - 1)).any(|cc| !lines.is_empty_cell(rr * SIZE + cc)));
        if near {
            out.push(c as u32);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_line_and_rejects_bad_ones() {
        let ok = "# comment\nwin | vcf | x | 7,7 0,0 7,8 0,1 7,9 0,2 | 7,10 7,6 | made by hand\n";
        let p = parse(ok).unwrap();
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].label, Label::Win);
        assert_eq!(p[0].answers, vec![(7, 10), (7, 6)]);
        assert_eq!(p[0].to_move(), Side::First);
        for bad in [
            "win | vcf | o | 7,7 0,0 | 7,10 | side to move wrong",
            "win | vcf | x | 7,7 7,7 | 7,10 | same cell twice",
            "win | vcf | x | 7,7 0,0 | 0,0 | answer on a stone",
            "lose | vcf | x | 7,7 0,0 | 7,10 | bad label",
            "win | vcf | x | 7,7 0,0 | | no answers",
            "win | vcf | x | 7,7 0,15 | 7,10 | off the board",
            "win | vcf | x | 7,7 0,0 | 7,10",
        ] {
            assert!(parse(bad).is_err(), "accepted: {bad}");
        }
    }
}
