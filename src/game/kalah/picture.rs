//! Kalah's pictures: the board as text and as the page's view.

use super::knowledge::SEED;
use super::{Kalah, KalahMove};
use crate::game::render::{Opinion, Render, View, ViewCell, ViewMove, ViewPlayer};
use crate::game::{Game, Side};
use crate::search::{Score, WIN_BOUND};
use anyhow::{anyhow, Result};

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
                let seeds = if effect.captured == 1 { "seed" } else { "seeds" };
                notes.push(format!("Capture: {who} took {} {seeds}.", effect.captured));
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

    fn parse_human(&self, text: &str) -> Result<KalahMove> {
        self.parse_move(text).map_err(|_| {
            let swap = if self.pie() { " or swap" } else { "" };
            anyhow!("'{}' is not a pit: type a pit number from 1 to {}{swap}", text.trim(), self.pits())
        })
    }

    fn side_names(&self) -> [&'static str; 2] {
        ["South", "North"]
    }

    /// The solver's scores are margins ([`super::KalahKnowledge`]'s `solve_exactly`): "wins by 10 seeds".
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
        // The winner's count first: "North has more seeds: 33 to 15".
        let words = match first.cmp(&second) {
            std::cmp::Ordering::Greater => format!("{} has more seeds: {first} to {second}", names[0]),
            std::cmp::Ordering::Less => format!("{} has more seeds: {second} to {first}", names[1]),
            std::cmp::Ordering::Equal => format!("the stores are equal: {first} to {second}"),
        };
        self.is_over().then_some(words)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::kalah::Capture;
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
